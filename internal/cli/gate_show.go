package cli

import "github.com/orc-state/orc-state/internal/app"

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// Run prints the recorded verdicts, the retry count of each phase that
// has one, and the budget they are counted against (app.GateShow).
func (c *GateShowCmd) Run(o *app.Streams, txn *app.Txn) error {
	shown, err := app.GateShow(txn, c.Branch)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, shown, "  ")
	}
	printLines(o.Stdout, shown.Lines())
	return nil
}
