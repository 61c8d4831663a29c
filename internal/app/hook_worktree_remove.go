package app

import (
	"fmt"
	"path/filepath"
)

// HookWorktreeRemove is `hook worktree-remove`: it reads the payload and
// removes the client's worktree at worktree_path, which must be absolute,
// and its binding (worktrees.Run.Discard). It prints nothing and returns
// the problem the hook reports on stderr (nil: none).
func HookWorktreeRemove(o *Streams, w *World, txn *Txn) error {
	p, err := readHook(o, w, txn, "WorktreeRemove")
	if err != nil {
		return err
	}
	if p.WorktreePath == "" || !filepath.IsAbs(p.WorktreePath) {
		return fmt.Errorf("worktree_path %q is not an absolute path", p.WorktreePath)
	}
	return txn.Worktrees().Discard(filepath.Clean(p.WorktreePath))
}
