package fault

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

func TestExplain(t *testing.T) {
	regInvalid := func(p registry.Problem) error {
		return &registry.InvalidError{Name: "orc.json", Fault: "f", Problem: p}
	}
	tests := []struct {
		name string
		err  error
		code int
		msg  string
		hint string
	}{
		{"nil", nil, OK, "", ""},
		{"unknown error", errors.New("boom"), Internal, "boom", hintInternal},
		{"fault error", Usagef("bad %s", "x").WithHint("do y"), Usage, "bad x", "do y"},
		{"fault error outside a typed one", Wrap(Invalid, regInvalid(registry.Legacy), "cannot read orc.json").WithHint("run orc-state doctor"),
			Invalid, "cannot read orc.json: orc.json is invalid: f", "run orc-state doctor"},
		{"lock timeout", &lock.TimeoutError{Timeout: 1}, Locked, "state is locked by another process; gave up after 1ns", ""},
		{"registry damaged", regInvalid(registry.Damaged), Invalid, "orc.json is invalid: f", "run orc-state doctor"},
		{"registry legacy", regInvalid(registry.Legacy), Invalid, "orc.json is invalid: f", "run orc-state migrate"},
		{"registry newer", regInvalid(registry.Newer), Invalid, "orc.json is invalid: f", "upgrade orc-state"},
		{"registry garbled", regInvalid(registry.Garbled), Invalid, "orc.json is invalid: f", "orc-state repair --rebuild-registry rebuilds orc.json from each session's checkpoint and journal (the damaged file kept aside), or fix orc.json by hand, then run orc-state migrate"},
		{"registry not an object", regInvalid(registry.NotObject), Invalid, "orc.json is invalid: f", "restore orc.json from a backup, or remove it"},
		{"registry bad sessions", regInvalid(registry.BadSessions), Invalid, "orc.json is invalid: f", "orc-state repair --rebuild-registry rebuilds orc.json from each session's checkpoint and journal (the damaged file kept aside), or fix orc.json by hand, then run orc-state migrate"},
		{"registry bad entry", regInvalid(registry.BadEntry), Invalid, "orc.json is invalid: f", "fix that entry by hand, then run orc-state migrate"},
		{"registry collision", regInvalid(registry.Collision), Invalid, "orc.json is invalid: f", "remove or rename one entry by hand, then run orc-state migrate"},
		{"wrapped registry", fmt.Errorf("reading: %w", regInvalid(registry.Legacy)), Invalid, "reading: orc.json is invalid: f", "run orc-state migrate"},
		{"joined registry", errors.Join(errors.New("a"), regInvalid(registry.Newer)), Invalid, "a\norc.json is invalid: f", "upgrade orc-state"},
		{"decisions invalid", &decisions.InvalidError{Name: "decisions.json", Fault: "f"}, Invalid, "decisions.json is invalid: f", "run orc-state doctor"},
		{"decisions newer", &decisions.InvalidError{Name: "decisions.json", Fault: "f", Problem: registry.Newer}, Invalid, "decisions.json is invalid: f", "upgrade orc-state"},
		{"decisions input", &decisions.InputError{Fault: "bad key"}, Usage, "bad key", ""},
		{"decision settled", &decisions.SettledError{Key: "k", Value: "v"}, NotFound, "'k' already settled (v); pass --supersede to change it", ""},
		{"decision no count", &decisions.SettingError{Key: "maxRetriesPerSlice", Value: "abc"}, Invalid,
			`decision maxRetriesPerSlice holds "abc", not a retry count from 0 to 2147483647`,
			"settle it again: orc-state decision set maxRetriesPerSlice N --provenance policy --supersede (N: the retries allowed, such as 2)"},
		{"ledger on disk", &slices.InvalidError{Name: "slices.json", Fault: "f"}, Invalid, "slices.json is invalid: f", "run orc-state doctor"},
		{"ledger newer", &slices.InvalidError{Name: "slices.json", Fault: "f", Problem: registry.Newer}, Invalid, "slices.json is invalid: f", "upgrade orc-state"},
		{"plan given", &slices.InvalidError{Name: "slice plan", Fault: "f", Input: true}, Usage, "slice plan is invalid: f", "fix the plan file and run orc-state slice init again"},
		{"worktrees.json damaged", parseErr(binding.Parse([]byte(`{"worktrees":[]}`))), Invalid, "worktrees.json is invalid: no schema field", "run orc-state doctor"},
		{"worktrees.json newer", parseErr(binding.Parse([]byte(`{"schema":2,"worktrees":[]}`))), Invalid,
			"worktrees.json is invalid: schema 2 is newer than this orc-state understands (1)", "upgrade orc-state"},
		{"decisions.json newer, as parsed", parseErr(decisions.Parse([]byte(`{"schema":3,"decisions":{}}`))), Invalid,
			"decisions.json is invalid: schema 3 is newer than this orc-state understands (1)", "upgrade orc-state"},
		{"slices.json newer, as parsed", parseErr(slices.Parse([]byte(`{"schema":2,"slices":[]}`))), Invalid,
			"slices.json is invalid: schema 2 is newer than this orc-state understands (1)", "upgrade orc-state"},
		{"plan given, newer", &slices.InvalidError{Name: "slice plan", Fault: "f", Input: true, Problem: registry.Newer}, Usage, "slice plan is invalid: f", "upgrade orc-state"},
		{"no such slice", &slices.NotFoundError{ID: "9"}, NotFound, `no slice with id "9"`, "run orc-state slice list"},
		{"no such slice, near ones", &slices.NotFoundError{ID: "s9", Near: []string{"s1", "it's"}}, NotFound, `no slice with id "s9"`, `did you mean s1 or 'it'\''s'? run orc-state slice list`},
		{"illegal edge", &slices.EdgeError{From: "pending", To: "green", Allowed: []string{"red"}}, Usage, "illegal transition pending → green; from pending: red", ""},
		{"terminal edge", &slices.EdgeError{From: "committed", To: "red"}, Usage, "illegal transition committed → red; committed is terminal",
			"pass --force to leave a terminal status (the move is journaled)"},
		{"missing commit", &slices.UsageError{Fault: "committed requires --commit", Field: "Commit", Missing: true}, Usage, "committed requires --commit", "pass --commit SHA"},
		{"bad commit", &slices.UsageError{Fault: "c", Field: "Commit"}, Usage, "c", "pass a commit sha"},
		{"missing note", &slices.UsageError{Fault: "n", Field: "Note", Missing: true}, Usage, "n", "pass --note saying why"},
		{"bad note", &slices.UsageError{Fault: "n", Field: "Note"}, Usage, "n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, msg, hint := Explain(tt.err)
			if code != tt.code || msg != tt.msg || hint != tt.hint {
				t.Errorf("Explain = %d %q %q, want %d %q %q", code, msg, hint, tt.code, tt.msg, tt.hint)
			}
		})
	}
}

// TestEveryRegistryProblemHasAHint: a new Problem without a hint would
// leave the user with no next step.
func TestEveryRegistryProblemHasAHint(t *testing.T) {
	for p := registry.Damaged; p <= registry.Collision; p++ {
		if registryHints[p] == "" {
			t.Errorf("registry.Problem %d has no hint", p)
		}
	}
	if len(registryHints) != int(registry.Collision)+1 {
		t.Errorf("registryHints has %d entries for %d problems", len(registryHints), registry.Collision+1)
	}
}

// TestExplainClaims drives the ledger's claim verbs into each refusal and
// checks the code and hint the user gets.
func TestExplainClaims(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	claimed := func(by string, d time.Duration) string {
		return `,"claimedBy":"` + by + `","claimedUntil":"` + t0.Add(d).Format(slices.TimeLayout) + `"`
	}
	ledger := func(t *testing.T, list string) *slices.Ledger {
		l, err := slices.Parse([]byte(`{"slices":[` + list + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	claim := func(list string) func(t *testing.T) error {
		return func(t *testing.T) error { _, err := ledger(t, list).Claim("a", t0, time.Minute); return err }
	}
	tests := []struct {
		name string
		run  func(t *testing.T) error
		code int
		hint string
	}{
		{"all done", claim(`{"id":1,"status":"committed"}`), NotFound, ""},
		{"claimed by others", claim(`{"id":1` + claimed("b", 5*time.Minute) + `},{"id":2` + claimed("c", 2*time.Minute) + `}`), NotFound,
			"retry after 2026-03-01T12:02:00Z, when the first lease held by another agent ends"},
		{"claimed by you only", claim(`{"id":1` + claimed("a", time.Minute) + `}`), NotFound,
			"finish or release your own claim (orc-state slice set, orc-state slice release)"},
		{"blocked", claim(`{"id":1,"status":"green"},{"id":2,"dependsOn":[1]}`), NotFound,
			"retry when the slices they depend on are committed or skipped"},
		{"waiting", claim(`{"id":1,"status":"green"}`), NotFound,
			"green slices wait for their commit, escalated ones for a human (orc-state slice list)"},
		{"renew another's live claim", func(t *testing.T) error {
			_, err := ledger(t, `{"id":1`+claimed("b", time.Minute)+`}`).Renew("1", "a", t0, time.Minute)
			return err
		}, NotFound, "it is not yours to renew; check --agent and $ORC_ACTOR"},
		{"renew another's expired claim", func(t *testing.T) error {
			_, err := ledger(t, `{"id":1`+claimed("b", -time.Minute)+`}`).Renew("1", "a", t0, time.Minute)
			return err
		}, NotFound, "take it with orc-state slice claim"},
		{"renew an unclaimed slice", func(t *testing.T) error {
			_, err := ledger(t, `{"id":1}`).Renew("1", "a", t0, time.Minute)
			return err
		}, NotFound, "take a ready slice with orc-state slice claim"},
		{"release another's claim", func(t *testing.T) error {
			_, err := ledger(t, `{"id":1`+claimed("b", time.Minute)+`}`).Release("1", "a", t0, false)
			return err
		}, NotFound, "only its holder releases it; pass --force to remove another agent's claim (journaled)"},
		{"set another's claimed slice", func(t *testing.T) error {
			_, err := ledger(t, `{"id":1`+claimed("b", time.Minute)+`}`).Set("1", slices.Update{Status: "red", Agent: "a", Now: t0})
			return err
		}, NotFound, "leave it to its holder, or pass --force to act anyway (journaled)"},
		{"empty agent", func(t *testing.T) error { return slices.CheckAgent("") }, Usage, "pass --agent NAME, or set ORC_ACTOR"},
		{"agent on two lines", func(t *testing.T) error { return slices.CheckAgent("a\nb") }, Usage, "pass --agent NAME"},
		{"long agent", func(t *testing.T) error { return slices.CheckAgent(strings.Repeat("a", slices.MaxAgent+1)) }, Usage, "pass a shorter --agent NAME"},
		{"lease out of range", func(t *testing.T) error { return slices.CheckLease(0) }, Usage,
			"pass --lease like 30m (renew a long task with orc-state slice renew)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(t)
			if err == nil {
				t.Fatal("no error")
			}
			if code, _, hint := Explain(err); code != tt.code || hint != tt.hint {
				t.Errorf("Explain(%v) = %d %q, want %d %q", err, code, hint, tt.code, tt.hint)
			}
		})
	}
}

// parseErr is the error of a format's Parse, for rows that explain what a
// parser really returns.
func parseErr[T any](_ T, err error) error { return err }
