package app

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// WorktreeAddParams are worktree add's: where the new worktree goes (as
// the user gave it), what to check out there ("" for git's choice), the
// branch to create (-b), whether to detach, the session to bind it to
// ("" for the one selected here) and its agent ("" for none).
type WorktreeAddParams struct {
	Path      string
	Commit    string
	NewBranch string
	Detach    bool
	Session   string
	Agent     string
}

// WorktreeAdd checks the agent and the path, asks git for the new
// worktree (before any lock), then binds it to the session under the lock
// (worktrees.Run.Add), and returns its row as worktree list prints it.
func WorktreeAdd(w *World, txn *Txn, p WorktreeAddParams) (string, error) {
	if err := worktrees.CheckAgent(p.Agent); err != nil {
		return "", err
	}
	if err := textin.SingleLine("PATH", p.Path); err != nil {
		return "", fault.Usagef("%v", err).WithHint("name the worktree's folder on one line")
	}
	txn.where.Flag = p.Session // --session, else the session selected here
	row, err := txn.Worktrees().Add(worktrees.NewWorktree{Path: w.Abs(p.Path), Commit: p.Commit, NewBranch: p.NewBranch, Detach: p.Detach, Agent: p.Agent})
	if err != nil {
		return "", err
	}
	return worktreeRowText(row), nil
}
