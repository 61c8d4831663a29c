package app

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/worktrees"
)

// HookWorktreeCreate is `hook worktree-create`: it reads the payload,
// makes the worktree the client asks for (worktrees.Run.Create), prints
// its path on o.Stdout as soon as it exists, then binds it to the live
// session (worktrees.Run.Bind): the client's worktree never waits on the
// binding, so the path is printed here, between the two, and not by the
// caller. When the path cannot be printed nothing is bound. It returns
// the problem the hook reports on stderr (nil: none).
func HookWorktreeCreate(o *Streams, w *World, txn *Txn) error {
	p, err := readHook(o, w, txn, "WorktreeCreate")
	if err != nil {
		return err
	}
	name := p.Name
	if name == "" {
		name = p.WorktreeName
	}
	r := txn.Worktrees()
	made, err := r.Create(worktrees.Requested{Name: name, BasePath: p.BasePath, SourceRef: p.SourceRef, AgentType: p.AgentType, AgentID: p.AgentID})
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(o.Stdout, made.Path); err != nil {
		return nil
	}
	return r.Bind(made)
}
