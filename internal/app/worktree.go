package app

// What the worktree verbs share, whose work is internal/worktrees': a
// worktree's row as worktree list prints it, and the binding a verb
// removed.

import (
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// WorktreeLeft is the binding a worktree verb removed: the worktree's
// path and the session it was bound to. Bound is false when the worktree
// was bound to no session (Path is then the path looked for).
type WorktreeLeft struct {
	Path    string
	Session string
	Bound   bool
}

// worktreeLeftOf is the binding b removed; the worktree at path was bound
// to nothing when b is nil.
func worktreeLeftOf(b *binding.Binding, path string) WorktreeLeft {
	if b == nil {
		return WorktreeLeft{Path: path}
	}
	return WorktreeLeft{Path: b.Path, Session: b.Session, Bound: true}
}

// worktreeRowText is a worktree's row as worktree list prints it; "" for
// nil.
func worktreeRowText(r *worktrees.Row) string {
	if r == nil {
		return ""
	}
	return r.Text()
}
