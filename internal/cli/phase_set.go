package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// PhaseSetCmd is `phase set`.
type PhaseSetCmd struct {
	BranchFlag
	Phase string `arg:"" help:"Phase number or done."`
	Label string `help:"Phase label (one line). A phase change without --label clears the label." placeholder:"L"`
}

// Run sets the phase and its label: --label replaces the label, and a
// change of phase without --label clears it (the original's semantics: a
// label names its phase, so it never moves on with another one). Setting
// the phase it already has keeps the label.
func (c *PhaseSetCmd) Run(txn *app.Txn) error {
	p, err := registry.ParsePhase(c.Phase)
	if err != nil {
		return fault.Usagef("%v", err).WithHint("pass done or a number between 1 and the session's totalPhases")
	}
	if err := textin.SingleLine("--label", c.Label); err != nil {
		return fault.Usagef("%v", err)
	}
	return txn.Mutate(c.Branch, map[string]string{"phase": c.Phase, "label": c.Label}, func(_ *state.Tx, s *registry.Session) error {
		if !p.Done && p.N > s.TotalPhases {
			return fault.Usagef("phase %d is beyond totalPhases %d", p.N, s.TotalPhases).
				WithHint("pass a phase in 1..%d or done, or raise it with orc-state init --total-phases", s.TotalPhases)
		}
		phase.Move(s, p, c.Label)
		return nil
	})
}
