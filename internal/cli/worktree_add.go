package cli

import "github.com/orc-state/orc-state/internal/app"

// WorktreeAddCmd is `worktree add`.
type WorktreeAddCmd struct {
	Path      string `arg:"" help:"Where the new worktree goes (as for git worktree add)."`
	Commit    string `arg:"" optional:"" help:"What to check out there (git's commit-ish); default: git's own choice." placeholder:"COMMIT"`
	NewBranch string `name:"new-branch" short:"b" help:"Create this branch for the new worktree (git worktree add -b)." placeholder:"BRANCH"`
	Detach    bool   `help:"Check out a detached HEAD (git worktree add --detach)."`
	Session   string `help:"The session to bind it to, by sessionId; default: the session selected here." placeholder:"S"`
	AgentFlag
}

// Run asks git for the new worktree (before any lock), then binds it to
// the session under the lock (app.WorktreeAdd) and prints its row as
// worktree list does.
func (c *WorktreeAddCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	row, err := app.WorktreeAdd(w, txn, app.WorktreeAddParams{Path: c.Path, Commit: c.Commit, NewBranch: c.NewBranch,
		Detach: c.Detach, Session: c.Session, Agent: c.Agent})
	if err != nil {
		return err
	}
	return printRow(o, row)
}
