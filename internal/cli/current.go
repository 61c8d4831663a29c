package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/selection"
)

// CurrentCmd is `current`.
type CurrentCmd struct {
	BranchFlag
}

// Run prints the current branch's entry.
func (c *CurrentCmd) Run(o *app.Streams, where *selection.Where) error {
	_, _, s, err := where.Session(c.Branch)
	if err != nil {
		return err
	}
	return printJSON(o.Stdout, s, "  ")
}
