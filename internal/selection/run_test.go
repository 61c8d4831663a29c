package selection

import (
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
)

// TestRunWhereResolvesTheStateDirOnceAndOnlyWhenAsked: a rule that needs
// no state dir ($ORC_SESSION naming no possible session) is refused
// before the state dir is resolved, so its error is the one shown; once
// asked, the state dir is resolved once, with the run's clock.
func TestRunWhereResolvesTheStateDirOnceAndOnlyWhenAsked(t *testing.T) {
	w := newWorld(t)
	bad := Run{DirFlag: "/nonexistent/.orc/x", Wd: w.main, Environ: append(w.env, "ORC_SESSION=.."), Clock: time.Now}
	if _, err := bad.Where().Choose(""); err == nil || !strings.Contains(err.Error(), "$ORC_SESSION") {
		t.Fatalf("Choose with $ORC_SESSION=..: %v, want the $ORC_SESSION refusal", err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	where := Run{Wd: w.main, Environ: w.env, Clock: func() time.Time { return at }}.Where()
	d1, err := where.Dir()
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := where.Dir()
	if d1 != d2 || d1.Clock == nil || !d1.Clock().Equal(at) {
		t.Errorf("Dir resolved twice (%p, %p) or without the run's clock", d1, d2)
	}
	if b, err := where.Binding(); b != nil || err != nil {
		t.Errorf("the main worktree's binding: %v, %v; want none", b, err)
	}
}

// TestAgentFollowsFlagThenBindingThenActorThenWorktree: --agent beats the
// agent the worktree's binding names, which beats $ORC_ACTOR, which beats
// the worktree's root; a name slices cannot keep, or a credential, is
// refused (exit 2) naming where it came from.
func TestAgentFollowsFlagThenBindingThenActorThenWorktree(t *testing.T) {
	w := newWorld(t)
	tests := []struct {
		flag, bound, actor string
		want               string // the agent, or "exit 2: " and what the message names
	}{
		{"a1", "b1", "c1", "a1"},
		{"", "b1", "c1", "b1"},
		{"", "", "c1", "c1"},
		{"", "", "", w.wt},
		{"has space\n", "", "", "exit 2: --agent"},
		{"", "", "ghp_" + strings.Repeat("a", 36), "exit 2: $ORC_ACTOR"},
	}
	for _, tt := range tests {
		var b *binding.Binding
		if tt.bound != "" {
			b = &binding.Binding{Session: "s", Agent: tt.bound}
		}
		got, err := w.where(t, w.wt, "", map[string]string{"ORC_ACTOR": tt.actor}, b).Agent(tt.flag, w.wt)
		if err != nil {
			got = "exit " + string(rune('0'+fault.Code(err))) + ": " + err.Error()
		}
		if got != tt.want && !(strings.HasPrefix(tt.want, "exit 2: ") && strings.HasPrefix(got, tt.want)) {
			t.Errorf("Agent(%q) bound %q, $ORC_ACTOR %q: %q, want %q", tt.flag, tt.bound, tt.actor, got, tt.want)
		}
	}
}
