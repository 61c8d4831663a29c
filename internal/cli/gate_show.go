package cli

import "github.com/orc-state/orc-state/internal/phase"

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// Run prints the recorded verdicts, the retry count of each phase that
// has one, and the budget they are counted against (phase.Show).
func (c *GateShowCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	shown, err := phase.Show(d, s)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e.Stdout, shown, "  ")
	}
	printLines(e.Stdout, shown.Lines())
	return nil
}
