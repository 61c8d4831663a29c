package cli

import "github.com/orc-state/orc-state/internal/app"

// PhaseSetCmd is `phase set`.
type PhaseSetCmd struct {
	BranchFlag
	Phase string `arg:"" help:"Phase number or done."`
	Label string `help:"Phase label (one line). A phase change without --label clears the label." placeholder:"L"`
}

// Run sets the phase and its label (app.PhaseSet): --label replaces the
// label, and a change of phase without --label clears it (the original's
// semantics: a label names its phase, so it never moves on with another
// one). Setting the phase it already has keeps the label.
func (c *PhaseSetCmd) Run(txn *app.Txn) error {
	return app.PhaseSet(txn, c.Branch, c.Phase, c.Label)
}
