package app

import "github.com/orc-state/orc-state/internal/phase"

// GateShow returns the gate of the session for branch (the current
// branch when ""): its recorded verdicts, the retry count of each phase
// that has one, and the budget they are counted against (phase.Show),
// to print as JSON or as its Lines.
func GateShow(txn *Txn, branch string) (phase.Shown, error) {
	d, _, s, err := txn.Where().Session(branch)
	if err != nil {
		return phase.Shown{}, err
	}
	return phase.Show(d, s)
}
