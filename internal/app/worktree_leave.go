package app

// WorktreeLeave removes the binding of the worktree at path (as the user
// gave it; "" for the one the run is in), never the worktree, under the
// lock (worktrees.Run.Leave), and returns what it unbound (not Bound when
// the worktree was bound to no session).
func WorktreeLeave(w *World, txn *Txn, path string) (WorktreeLeft, error) {
	left, path, err := txn.Worktrees().Leave(w.Abs(path))
	if err != nil {
		return WorktreeLeft{}, err
	}
	return worktreeLeftOf(left, path), nil
}
