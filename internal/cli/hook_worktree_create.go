package cli

import "github.com/orc-state/orc-state/internal/app"

// HookWorktreeCreateCmd is `hook worktree-create`.
type HookWorktreeCreateCmd struct{}

// Help is the detail of hook worktree-create --help: the payload fields read.
func (c *HookWorktreeCreateCmd) Help() string {
	return hookHelp("WorktreeCreate", "cwd", "agent_id", "agent_type", "name", "worktree_name", "base_path", "source_ref") + `
A WorktreeCreate hook replaces the client's own git step. Like the client,
it runs git worktree add -b worktree-NAME BASE/NAME at source_ref (default
HEAD), BASE being base_path or .claude/worktrees at the root of cwd's
worktree, and prints the new worktree's path on stdout. It then binds the
worktree to the live session selected at cwd (with the agent id
agent_type-agent_id when the payload has agent_id); when that fails the
worktree stays, the path is printed and stderr says why in one line. A
name that is not one folder name of [A-Za-z0-9._-], or git's refusal,
creates nothing, prints nothing on stdout and one line on stderr. Exit 0.`
}

// Run makes and binds the worktree the client asks for
// (app.HookWorktreeCreate), which prints its path first: the client's
// worktree never waits on the binding.
func (c *HookWorktreeCreateCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookWorktreeCreate(o, w, txn))
}
