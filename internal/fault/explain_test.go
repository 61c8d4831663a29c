package fault

import (
	"errors"
	"fmt"
	"testing"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

func TestExplain(t *testing.T) {
	regInvalid := func(p registry.Problem) error { return &registry.InvalidError{Fault: "f", Problem: p} }
	tests := []struct {
		name string
		err  error
		code int
		msg  string
		hint string
	}{
		{"nil", nil, OK, "", ""},
		{"unknown error", errors.New("boom"), NotFound, "boom", ""},
		{"fault error", Usagef("bad %s", "x").WithHint("do y"), Usage, "bad x", "do y"},
		{"fault error outside a typed one", Wrap(Invalid, regInvalid(registry.Legacy), "cannot read orc.json").WithHint("run orc-state doctor"),
			Invalid, "cannot read orc.json: orc.json is invalid: f", "run orc-state doctor"},
		{"lock timeout", &lock.TimeoutError{Timeout: 1}, Locked, "state is locked by another process; gave up after 1ns", ""},
		{"registry damaged", regInvalid(registry.Damaged), Invalid, "orc.json is invalid: f", "run orc-state doctor"},
		{"registry legacy", regInvalid(registry.Legacy), Invalid, "orc.json is invalid: f", "run orc-state migrate"},
		{"registry newer", regInvalid(registry.Newer), Invalid, "orc.json is invalid: f", "upgrade orc-state"},
		{"registry garbled", regInvalid(registry.Garbled), Invalid, "orc.json is invalid: f", "fix orc.json by hand (or restore a backup), then run orc-state migrate"},
		{"registry not an object", regInvalid(registry.NotObject), Invalid, "orc.json is invalid: f", "restore orc.json from a backup, or remove it"},
		{"registry bad sessions", regInvalid(registry.BadSessions), Invalid, "orc.json is invalid: f", "fix orc.json by hand, then run orc-state migrate"},
		{"registry bad entry", regInvalid(registry.BadEntry), Invalid, "orc.json is invalid: f", "fix that entry by hand, then run orc-state migrate"},
		{"registry collision", regInvalid(registry.Collision), Invalid, "orc.json is invalid: f", "remove or rename one entry by hand, then run orc-state migrate"},
		{"wrapped registry", fmt.Errorf("reading: %w", regInvalid(registry.Legacy)), Invalid, "reading: orc.json is invalid: f", "run orc-state migrate"},
		{"joined registry", errors.Join(errors.New("a"), regInvalid(registry.Newer)), Invalid, "a\norc.json is invalid: f", "upgrade orc-state"},
		{"decisions invalid", &decisions.InvalidError{Fault: "f"}, Invalid, "decisions.json is invalid: f", "run orc-state doctor"},
		{"decisions newer", &decisions.InvalidError{Fault: "f", Newer: true}, Invalid, "decisions.json is invalid: f", "upgrade orc-state"},
		{"decisions input", &decisions.InputError{Fault: "bad key"}, Usage, "bad key", ""},
		{"decision settled", &decisions.SettledError{Key: "k", Value: "v"}, NotFound, "'k' already settled (v); pass --supersede to change it", ""},
		{"ledger on disk", &slices.InvalidError{Fault: "f"}, Invalid, "slices.json is invalid: f", "run orc-state doctor"},
		{"ledger newer", &slices.InvalidError{Fault: "f", Newer: true}, Invalid, "slices.json is invalid: f", "upgrade orc-state"},
		{"plan given", &slices.InvalidError{Fault: "f", Input: true}, Usage, "slice plan is invalid: f", "fix the plan file and run orc-state slice init again"},
		{"plan given, newer", &slices.InvalidError{Fault: "f", Input: true, Newer: true}, Usage, "slice plan is invalid: f", "upgrade orc-state"},
		{"no such slice", &slices.NotFoundError{ID: "9"}, NotFound, `no slice with id "9"`, "run orc-state slice list"},
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
