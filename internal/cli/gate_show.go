package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/selection"
)

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// Run prints the recorded verdicts, the retry count of each phase that
// has one, and the budget they are counted against (phase.Show).
func (c *GateShowCmd) Run(o *app.Streams, where *selection.Where) error {
	d, _, s, err := where.Session(c.Branch)
	if err != nil {
		return err
	}
	shown, err := phase.Show(d, s)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, shown, "  ")
	}
	printLines(o.Stdout, shown.Lines())
	return nil
}
