package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/workspace"
)

// WorkspaceLinkCmd is `workspace link`.
type WorkspaceLinkCmd struct {
	BranchFlag
}

// Run writes the back-pointer into each member repository that has a path
// (workspace.Run.Link), printing each one linked and warning of each
// without a path.
func (c *WorkspaceLinkCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	d, _, s, err := where.Session(c.Branch)
	if err != nil {
		return err
	}
	r := workspace.Run{Where: *where, Environ: w.Environ(), Clock: w.StampClock(),
		Options: func() (state.Options, error) { return txn.Options(state.Options{}) }}
	return r.Link(d, s, func(m workspace.Member) {
		if m.Link == "" {
			o.Warn("%s has no path; set it with orc-state repo set --path=P %s", m.Name, safetext.Operand(m.Name))
			return
		}
		fmt.Fprintf(o.Stdout, "linked %s: %s\n", safetext.Escape(m.Name), safetext.Escape(m.Link))
	})
}
