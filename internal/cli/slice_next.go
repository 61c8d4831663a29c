package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SliceNextCmd is `slice next`.
type SliceNextCmd struct {
	BranchFlag
}

// Run prints the re-entry slice (app.SliceNext); exit 1 when there is none.
func (c *SliceNextCmd) Run(o *app.Streams, txn *app.Txn) error {
	sl, err := app.SliceNext(txn, c.Branch)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "%s\t%s\t%s\n", safetext.Escape(sl.ID), safetext.Escape(sl.Status), safetext.Escape(sl.Title))
	return nil
}
