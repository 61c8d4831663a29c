package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// WorktreeJoinCmd is `worktree join`.
type WorktreeJoinCmd struct {
	Session string `help:"The session to bind this worktree to, by sessionId; default: $ORC_SESSION." placeholder:"S"`
	AgentFlag
}

// Run binds the linked worktree it runs in to the session, under the
// lock (worktrees.Run.Join), and prints its row as worktree list does.
func (c *WorktreeJoinCmd) Run(o *app.Streams, txn *app.Txn) error {
	if err := worktrees.CheckAgent(c.Agent); err != nil {
		return err
	}
	row, err := txn.Worktrees().Join(c.Session, c.Agent)
	if err != nil {
		return err
	}
	return printRow(o, row)
}
