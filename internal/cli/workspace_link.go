package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// WorkspaceLinkCmd is `workspace link`.
type WorkspaceLinkCmd struct {
	BranchFlag
}

// Run writes the back-pointer into each member repository that has a path
// (app.WorkspaceLink), printing each one linked and warning of each
// without a path.
func (c *WorkspaceLinkCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return app.WorkspaceLink(w, txn, c.Branch, func(name, link string) {
		if link == "" {
			o.Warn("%s has no path; set it with orc-state repo set --path=P %s", name, safetext.Operand(name))
			return
		}
		fmt.Fprintf(o.Stdout, "linked %s: %s\n", safetext.Escape(name), safetext.Escape(link))
	})
}
