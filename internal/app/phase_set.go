package app

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// PhaseSet sets the phase (a number or done, as given) and its label on
// the session for branch (the current branch when ""): a label replaces
// the label, and a change of phase without one clears it (the original's
// semantics: a label names its phase, so it never moves on with another
// one). Setting the phase it already has keeps the label. A phase beyond
// the session's totalPhases is refused.
func PhaseSet(txn *Txn, branch, phaseArg, label string) error {
	p, err := registry.ParsePhase(phaseArg)
	if err != nil {
		return fault.Usagef("%v", err).WithHint("pass done or a number between 1 and the session's totalPhases")
	}
	if err := textin.SingleLine("--label", label); err != nil {
		return fault.Usagef("%v", err)
	}
	return txn.Mutate(branch, map[string]string{"phase": phaseArg, "label": label}, func(_ *state.Tx, s *registry.Session) error {
		if !p.Done && p.N > s.TotalPhases {
			return fault.Usagef("phase %d is beyond totalPhases %d", p.N, s.TotalPhases).
				WithHint("pass a phase in 1..%d or done, or raise it with orc-state init --total-phases", s.TotalPhases)
		}
		phase.Move(s, p, label)
		return nil
	})
}
