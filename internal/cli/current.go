package cli

import "github.com/orc-state/orc-state/internal/app"

// CurrentCmd is `current`.
type CurrentCmd struct {
	BranchFlag
}

// Run prints the current branch's entry (app.Current).
func (c *CurrentCmd) Run(o *app.Streams, txn *app.Txn) error {
	s, err := app.Current(txn, c.Branch)
	if err != nil {
		return err
	}
	return printJSON(o.Stdout, s, "  ")
}
