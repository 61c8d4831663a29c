package slices

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func intp(n int) *int { return &n }

func TestSetRefusesBadUpdates(t *testing.T) {
	tests := []struct {
		name    string
		id      string
		u       Update
		want    string
		field   string // UsageError.Field
		missing bool
	}{
		{"unknown status", "1", Update{Status: "done"}, `status "done" is not one of pending, red, green, committed, escalated, skipped`, "Status", false},
		{"committed without commit", "1", Update{Status: "committed"}, "committed requires --commit", "Commit", true},
		{"skipped without note", "1", Update{Status: "skipped"}, "skipped requires --note", "Note", true},
		{"escalated without note", "1", Update{Status: "escalated"}, "escalated requires --note", "Note", true},
		{"bad commit", "1", Update{Status: "committed", Commit: "xyz1234"}, `commit "xyz1234" is not 7 to 64 hex digits`, "Commit", false},
		{"long commit", "1", Update{Status: "committed", Commit: strings.Repeat("a", 65)}, "not 7 to 64 hex digits", "Commit", false},
		{"negative loc", "1", Update{Status: "red", ActualLoc: intp(-1)}, "actual LOC -1 is negative", "ActualLoc", false},
		{"note with newline", "1", Update{Status: "red", Note: "a\nb"}, "note contains a line break (U+000A)", "Note", false},
		{"note with paragraph separator", "1", Update{Status: "red", Note: "a\u2029b"}, "note contains a line break (U+2029)", "Note", false},
		{"note with tab", "1", Update{Status: "red", Note: "a\tb"}, "note contains a control character", "Note", false},
		{"note not utf8", "1", Update{Status: "red", Note: "\xff"}, "note is not valid UTF-8", "Note", false},
		{"note too long", "1", Update{Status: "red", Note: strings.Repeat("n", MaxNote+1)}, "note is 4097 bytes", "Note", false},
		{"input checked before the id", "99", Update{Status: "committed"}, "committed requires --commit", "Commit", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mustParse(t, canonical)
			_, err := l.Set(tt.id, tt.u)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || ue.Field != tt.field || ue.Missing != tt.missing {
				t.Fatalf("Set = %v (%+v), want *UsageError %q (field %s, missing %v)", err, ue, tt.want, tt.field, tt.missing)
			}
			if string(l.Marshal()) != canonical {
				t.Fatal("a refused Set changed the ledger")
			}
		})
	}
}

func TestSetUnknownID(t *testing.T) {
	l := mustParse(t, canonical)
	_, err := l.Set("9", Update{Status: "red"})
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.ID != "9" || err.Error() != `no slice with id "9"` {
		t.Fatalf("err = %v", err)
	}
}

// TestSetPreservesPlannerBytes sets every tool-owned field and compares the
// whole file: only those keys change, appended at the end when absent.
func TestSetPreservesPlannerBytes(t *testing.T) {
	l := mustParse(t, canonical)
	if _, err := l.Set("1", Update{Status: "red", ActualLoc: intp(12), Note: "first test written"}); err != nil {
		t.Fatal(err)
	}
	r, err := l.Set("3", Update{Status: "committed", Commit: "ABCDEF0123", Note: "built on another branch"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || r.Warnings[0] != "commit abcdef0123 does not resolve in this repository; recorded as unverified" {
		t.Fatalf("warnings = %q", r.Warnings)
	}
	want := strings.NewReplacer(
		`      "status": "pending"
    },`, `      "status": "red",
      "attempts": 1,
      "actualLoc": 12,
      "note": "first test written"
    },`,
		`      "estLoc": 40
    }`, `      "estLoc": 40,
      "status": "committed",
      "commit": "abcdef0123",
      "commitVerified": false,
      "note": "built on another branch"
    }`).Replace(canonical)
	got := l.Marshal()
	if string(got) != want {
		t.Fatalf("Marshal =\n%s\nwant\n%s", got, want)
	}
	// Verifying the commit later drops the marker and nothing else moves.
	r, err = l.Set("3", Update{Status: "committed", Commit: "abcdef0123", CommitVerified: true, Note: "built on another branch"})
	if err != nil || !r.Changed || len(r.Warnings) != 0 {
		t.Fatalf("verify commit: %+v, %v", r, err)
	}
	if s, _ := l.Get("3"); s.Unverified || bytes.Contains(l.Marshal(), []byte("commitVerified")) {
		t.Fatalf("commitVerified kept: %s", l.Marshal())
	}
	// A second parse of the written bytes is stable.
	if again := mustParse(t, string(l.Marshal())).Marshal(); !bytes.Equal(again, l.Marshal()) {
		t.Fatal("Marshal is not idempotent after Set")
	}
}

func TestSetSameStatus(t *testing.T) {
	l := mustParse(t, canonical)
	before := l.Marshal()
	r, err := l.Set("2", Update{Status: "committed", Commit: "abcdef1", CommitVerified: true})
	if err != nil || r.Changed || r.From != "committed" || r.To != "committed" || r.Forced {
		t.Fatalf("idempotent retry: %+v, %v", r, err)
	}
	if !bytes.Equal(before, l.Marshal()) {
		t.Fatal("a no-op Set changed the bytes")
	}
	r, err = l.Set("2", Update{Status: "committed", Commit: "abcdef2", CommitVerified: true, ActualLoc: intp(90)})
	if err != nil || !r.Changed || r.From != r.To {
		t.Fatalf("same status, new commit: %+v, %v", r, err)
	}
	if s, _ := l.Get("2"); s.Commit != "abcdef2" || *s.ActualLoc != 90 {
		t.Fatalf("fields not recorded: %+v", s)
	}
	// red → red counts no attempt.
	l = mustParse(t, `{"slices":[{"id":1,"status":"red","attempts":1}]}`)
	r, err = l.Set("1", Update{Status: "red"})
	if err != nil || r.Changed || r.Attempts != 1 {
		t.Fatalf("red → red: %+v, %v", r, err)
	}
}

func TestForceLeavesTerminal(t *testing.T) {
	l := mustParse(t, canonical)
	r, err := l.Set("2", Update{Status: "red", Force: true})
	if err != nil || !r.Forced || r.From != "committed" || r.To != "red" || r.Attempts != 1 {
		t.Fatalf("forced: %+v, %v", r, err)
	}
	// Force does not open an illegal edge between open statuses.
	_, err = l.Set("1", Update{Status: "green", Force: true})
	var ee *EdgeError
	if !errors.As(err, &ee) {
		t.Fatalf("pending → green with force: %v", err)
	}
}

// TestRetryBudget walks a slice through red repeatedly. The budget counts
// retries after the first attempt: with the default (2) the first three
// entries go to red and the fourth escalates; a settled 0 allows the first
// attempt and no retry.
func TestRetryBudget(t *testing.T) {
	type step struct {
		to, wantTo   string
		wantAttempts int
		escalated    bool
	}
	run := func(t *testing.T, max int, steps []step) *Ledger {
		t.Helper()
		l := mustParse(t, `{"slices":[{"id":1,"planner":"keep"}]}`)
		for i, s := range steps {
			r, err := l.Set("1", Update{Status: s.to, MaxRetries: max})
			if err != nil {
				t.Fatalf("step %d (%s): %v", i+1, s.to, err)
			}
			if r.To != s.wantTo || r.Attempts != s.wantAttempts || r.Escalated != s.escalated {
				t.Fatalf("step %d (%s): %+v, want to %s attempts %d escalated %v", i+1, s.to, r, s.wantTo, s.wantAttempts, s.escalated)
			}
			if got, _ := l.Get("1"); got.Status != s.wantTo || got.Attempts != s.wantAttempts {
				t.Fatalf("step %d: stored %+v", i+1, got)
			}
		}
		return l
	}
	redGreen := func(n int) []step { // n entries into red, each followed by green
		var out []step
		for i := 1; i <= n; i++ {
			out = append(out, step{"red", "red", i, false}, step{"green", "green", i, false})
		}
		return out
	}
	t.Run("default budget", func(t *testing.T) {
		l := run(t, 0, append(redGreen(3), step{"red", "escalated", 3, true}))
		if s, _ := l.Get("1"); s.Note != "retry budget exhausted (3 attempts: the first and 2 retries)" {
			t.Fatalf("note = %q", s.Note)
		}
		// A human sends it back: a fresh budget.
		run2, err := l.Set("1", Update{Status: "red"})
		if err != nil || run2.Attempts != 1 || run2.Escalated || run2.From != "escalated" {
			t.Fatalf("escalated → red: %+v, %v", run2, err)
		}
	})
	t.Run("budget of three", func(t *testing.T) {
		run(t, 3, append(redGreen(4), step{"red", "escalated", 4, true}))
	})
	t.Run("budget of one", func(t *testing.T) {
		run(t, 1, append(redGreen(2), step{"red", "escalated", 2, true},
			step{"pending", "pending", 0, false}, step{"red", "red", 1, false}))
	})
	t.Run("negative budget (a settled 0): the first attempt, no retry", func(t *testing.T) {
		l := run(t, -1, []step{
			{"red", "red", 1, false},
			{"green", "green", 1, false},
			{"red", "escalated", 1, true},
		})
		if s, _ := l.Get("1"); s.Note != "retry budget exhausted (1 attempt, no retry)" {
			t.Fatalf("note = %q", s.Note)
		}
	})
	t.Run("user note is kept", func(t *testing.T) {
		l := mustParse(t, `{"slices":[{"id":1,"status":"green","attempts":3}]}`)
		r, err := l.Set("1", Update{Status: "red", Note: "flaky again"})
		if err != nil || !r.Escalated {
			t.Fatalf("%+v, %v", r, err)
		}
		if s, _ := l.Get("1"); s.Note != "retry budget exhausted (3 attempts: the first and 2 retries); flaky again" {
			t.Fatalf("note = %q", s.Note)
		}
	})
	t.Run("forced reopen starts a fresh budget", func(t *testing.T) {
		l := mustParse(t, `{"slices":[{"id":1,"status":"committed","commit":"abcdef0","attempts":2}]}`)
		r, err := l.Set("1", Update{Status: "red", Force: true})
		if err != nil || r.Escalated || r.Attempts != 1 {
			t.Fatalf("%+v, %v", r, err)
		}
	})
}

// TestReopenRetiresTheCommit: a commit is current only while its slice is
// committed. A forced reopen moves it (with commitVerified and actualLoc)
// to commitHistory; a different commit replacing it does too; a second
// reopen appends; the same commit again moves nothing.
func TestReopenRetiresTheCommit(t *testing.T) {
	at := func(s string) time.Time { tm, _ := time.Parse(TimeLayout, s); return tm }
	l := mustParse(t, `{"slices":[{"id":1,"status":"committed","commit":"abcdef1","commitVerified":false,"actualLoc":30}]}`)
	r, err := l.Set("1", Update{Status: "red", Force: true, Now: at("2026-03-01T10:00:00Z")})
	if err != nil || r.Retired != "abcdef1" || !r.Forced {
		t.Fatalf("reopen: %+v, %v", r, err)
	}
	want := `{
  "slices": [
    {
      "id": 1,
      "status": "red",
      "attempts": 1,
      "commitHistory": [{"commit": "abcdef1", "commitVerified": false, "actualLoc": 30, "supersededAt": "2026-03-01T10:00:00Z"}]
    }
  ]
}
`
	if got := string(l.Marshal()); got != want {
		t.Fatalf("after the reopen:\n%s\nwant:\n%s", got, want)
	}
	s, _ := l.Get("1")
	if s.Commit != "" || s.ActualLoc != nil || len(s.History) != 1 || s.History[0].Commit != "abcdef1" || !s.History[0].Unverified || *s.History[0].ActualLoc != 30 {
		t.Fatalf("view after the reopen: %+v", s)
	}
	for _, u := range []Update{{Status: "green"}, {Status: "committed", Commit: "1234567", CommitVerified: true}} {
		if _, err := l.Set("1", u); err != nil {
			t.Fatal(err)
		}
	}
	// Same commit again: nothing retired. Another commit: the old one goes.
	if r, err := l.Set("1", Update{Status: "committed", Commit: "1234567", CommitVerified: true, Now: at("2026-03-02T10:00:00Z")}); err != nil || r.Retired != "" || r.Changed {
		t.Fatalf("same commit: %+v, %v", r, err)
	}
	if r, err := l.Set("1", Update{Status: "committed", Commit: "89abcde", CommitVerified: true, Now: at("2026-03-03T10:00:00Z")}); err != nil || r.Retired != "1234567" {
		t.Fatalf("replaced commit: %+v, %v", r, err)
	}
	if _, err := l.Set("1", Update{Status: "skipped", Note: "dropped", Force: true, Now: at("2026-03-04T10:00:00Z")}); err != nil {
		t.Fatal(err)
	}
	l2 := mustParse(t, string(l.Marshal())) // what was written parses back
	s, _ = l2.Get("1")
	var got []string
	for _, h := range s.History {
		got = append(got, h.Commit+"@"+h.SupersededAt.Format(TimeLayout))
	}
	if s.Commit != "" || strings.Join(got, " ") != "abcdef1@2026-03-01T10:00:00Z 1234567@2026-03-03T10:00:00Z 89abcde@2026-03-04T10:00:00Z" {
		t.Fatalf("history %q, commit %q", got, s.Commit)
	}
	// green → red (a regression) keeps a commit a green slice carries.
	l = mustParse(t, `{"slices":[{"id":1,"status":"green","commit":"abcdef1"}]}`)
	if r, err := l.Set("1", Update{Status: "red"}); err != nil || r.Retired != "" {
		t.Fatalf("green → red: %+v, %v", r, err)
	}
}
