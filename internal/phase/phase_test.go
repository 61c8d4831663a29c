package phase

import (
	"testing"

	"github.com/orc-state/orc-state/registry"
)

// A label given replaces the old one; a phase change without one clears
// it; the same phase again keeps it.
func TestMoveKeepsALabelOnlyWithItsPhase(t *testing.T) {
	for _, tt := range []struct {
		name  string
		to    registry.Phase
		label string
		want  *string
	}{
		{"a new label", registry.Phase{N: 2}, "build", registry.Str("build")},
		{"another phase, no label", registry.Phase{N: 2}, "", nil},
		{"done, no label", registry.Phase{Done: true}, "", nil},
		{"the same phase, no label", registry.Phase{N: 1}, "", registry.Str("plan")},
	} {
		s := &registry.Session{Phase: registry.Phase{N: 1}, PhaseLabel: registry.Str("plan")}
		Move(s, tt.to, tt.label)
		if s.Phase != tt.to || registry.Deref(s.PhaseLabel) != registry.Deref(tt.want) || (s.PhaseLabel == nil) != (tt.want == nil) {
			t.Errorf("%s: phase %v label %v", tt.name, s.Phase, s.PhaseLabel)
		}
	}
}

// The gate section shows the last verdict of each of the five most recent
// phases with its retries against the budget.
func TestRenderShowsTheLastVerdictOfFivePhases(t *testing.T) {
	g := &registry.Gate{Retries: map[string]int{"6": 2}}
	for p := 1; p <= 6; p++ {
		g.Verdicts = append(g.Verdicts, registry.Verdict{Phase: p, Verdict: "changes_requested", At: "t0"})
	}
	g.Verdicts = append(g.Verdicts, registry.Verdict{Phase: 6, Verdict: "approved", Reviewer: "ann", At: "t1"})
	want := "- Phase 2: changes_requested (retries 0/3) at t0\n" +
		"- Phase 3: changes_requested (retries 0/3) at t0\n" +
		"- Phase 4: changes_requested (retries 0/3) at t0\n" +
		"- Phase 5: changes_requested (retries 0/3) at t0\n" +
		"- Phase 6: approved (retries 2/3) by ann at t1\n"
	if got := string(render(g, 3)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
