package app

// WorktreeRemove removes the linked worktree at path (as the user gave
// it) with git, then its binding (worktrees.Run.Remove; refused while its
// agent holds live claims, unless force), and returns what it unbound
// (not Bound when it was bound to no session).
func WorktreeRemove(w *World, txn *Txn, path string, force bool) (WorktreeLeft, error) {
	abs := w.Abs(path)
	left, err := txn.Worktrees().Remove(abs, force)
	if err != nil {
		return WorktreeLeft{}, err
	}
	return worktreeLeftOf(left, abs), nil
}
