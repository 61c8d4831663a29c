package cli

import "github.com/orc-state/orc-state/internal/app"

// WorktreeJoinCmd is `worktree join`.
type WorktreeJoinCmd struct {
	Session string `help:"The session to bind this worktree to, by sessionId; default: $ORC_SESSION." placeholder:"S"`
	AgentFlag
}

// Run binds the linked worktree it runs in to the session, under the
// lock (app.WorktreeJoin), and prints its row as worktree list does.
func (c *WorktreeJoinCmd) Run(o *app.Streams, txn *app.Txn) error {
	row, err := app.WorktreeJoin(txn, c.Session, c.Agent)
	if err != nil {
		return err
	}
	return printRow(o, row)
}
