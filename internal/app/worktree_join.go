package app

import "github.com/orc-state/orc-state/internal/worktrees"

// WorktreeJoin checks the agent, then binds the linked worktree the run
// is in to session (--session, else $ORC_SESSION) as agent ("" for none)
// under the lock (worktrees.Run.Join), and returns its row as worktree
// list prints it ("" when git no longer lists it).
func WorktreeJoin(txn *Txn, session, agent string) (string, error) {
	if err := worktrees.CheckAgent(agent); err != nil {
		return "", err
	}
	row, err := txn.Worktrees().Join(session, agent)
	if err != nil {
		return "", err
	}
	return worktreeRowText(row), nil
}
