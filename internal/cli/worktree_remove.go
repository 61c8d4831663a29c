package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
)

// WorktreeRemoveCmd is `worktree remove`.
type WorktreeRemoveCmd struct {
	Path  string `arg:"" help:"The linked worktree to remove (git worktree remove), then unbind."`
	Force bool   `help:"Remove it even while its agent holds live claims (they stay until released or expired)."`
}

// Run removes the worktree with git, then its binding
// (app.WorktreeRemove; refused while its agent holds live claims,
// unless --force), and prints what it unbound.
func (c *WorktreeRemoveCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	if c.Path == "" {
		return fault.Usagef("PATH is empty").WithHint("name the linked worktree to remove")
	}
	left, err := app.WorktreeRemove(w, txn, c.Path, c.Force)
	if err != nil || !left.Bound {
		return err // nil and no error: removed, it was bound to no session
	}
	return printLeft(o, left)
}
