package app

import "github.com/orc-state/orc-state/internal/worktrees"

// WorktreeList returns the repository's worktrees with the session each
// selects, its bound agent and the slices that agent holds
// (worktrees.List), claims judged by the run's clock.
func WorktreeList(w *World, sd *StateDir) ([]worktrees.Row, error) {
	d, err := sd.Dir()
	if err != nil {
		return nil, err
	}
	return worktrees.List(d, w.Now())
}
