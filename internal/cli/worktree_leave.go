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
// lock (worktrees.Run.Leave), and prints what it unbound. A worktree
// bound to nothing is left as it is: exit 0, saying so.
func (c *WorktreeLeaveCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	left, path, err := txn.Worktrees().Leave(w.Abs(c.Path))
	if err != nil {
		return err
	}
	if left == nil {
		o.Warn("%s is bound to no session; nothing to do", safetext.Escape(path))
		return nil
	}
	return printLeft(o, left)
}
