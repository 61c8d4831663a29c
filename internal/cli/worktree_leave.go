package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// WorktreeLeaveCmd is `worktree leave`.
type WorktreeLeaveCmd struct {
	Path string `arg:"" optional:"" help:"The worktree to unbind (also one that is gone); default: the one this runs in."`
}

// Run removes the binding of the worktree (never the worktree), under the
// lock (app.WorktreeLeave), and prints what it unbound. A worktree
// bound to nothing is left as it is: exit 0, saying so.
func (c *WorktreeLeaveCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	left, err := app.WorktreeLeave(w, txn, c.Path)
	if err != nil {
		return err
	}
	if !left.Bound {
		o.Warn("%s is bound to no session; nothing to do", safetext.Escape(left.Path))
		return nil
	}
	return printLeft(o, left)
}
