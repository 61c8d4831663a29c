package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
)

// SliceNextCmd is `slice next`.
type SliceNextCmd struct {
	BranchFlag
}

// Run prints the re-entry slice; exit 1 when there is none.
func (c *SliceNextCmd) Run(o *app.Streams, where *selection.Where) error {
	_, _, l, err := ledgerFor(where, c.Branch)
	if err != nil {
		return err
	}
	id, ok := l.Next()
	if !ok {
		return fault.NotFoundf("no open slice is ready (all done, escalated, or waiting on dependencies)")
	}
	sl, _ := l.Get(id)
	fmt.Fprintf(o.Stdout, "%s\t%s\t%s\n", safetext.Escape(sl.ID), safetext.Escape(sl.Status), safetext.Escape(sl.Title))
	return nil
}
