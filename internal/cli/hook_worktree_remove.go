package cli

import "github.com/orc-state/orc-state/internal/app"

// HookWorktreeRemoveCmd is `hook worktree-remove`.
type HookWorktreeRemoveCmd struct{}

// Help is the detail of hook worktree-remove --help: the payload fields read.
func (c *HookWorktreeRemoveCmd) Help() string {
	return hookHelp("WorktreeRemove", "cwd", "worktree_path") + `
It runs git worktree remove (never --force: git keeps a worktree with
changes) when the path is still one of the repository's worktrees, then
removes the worktree's binding (the worktree leave effect), also when the
folder is already gone. A worktree git keeps stays bound. It prints nothing
and exits 0, saying on stderr why when something failed.`
}

// Run removes the client's worktree and its binding
// (app.HookWorktreeRemove).
func (c *HookWorktreeRemoveCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookWorktreeRemove(o, w, txn))
}
