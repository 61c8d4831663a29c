package app

import (
	"time"

	"github.com/orc-state/orc-state/internal/removal"
)

// CleanupParams are what `cleanup` sweeps: the sessions named (Keys), or
// those a selector picks (AllCompleted, Gone, Merged into Into), not
// updated for MinAge (0: any age); Force also takes in_progress and paused
// sessions; DryRun only plans.
type CleanupParams struct {
	Keys                       []string
	AllCompleted, Gone, Merged bool
	Into                       string
	MinAge                     time.Duration
	Force, DryRun              bool
}

// CleanupResult is what a sweep of sessions did: its plan (empty when
// nothing matched) and how many sessions it removed (0 with DryRun).
type CleanupResult struct {
	Plan    []removal.Row
	Removed int
}

// Cleanup sweeps sessions: it plans the sweep (removal.Run.Plan) and,
// unless p.DryRun, archives each candidate's entry and files, then
// removes its folder and entry under the lock with a tombstone
// (removal.Run.Clean). It never deletes branches, worktrees or
// per-repository files. It returns the plan and the count removed.
func Cleanup(txn *Txn, p CleanupParams) (CleanupResult, error) {
	r := txn.Removal()
	plan, err := r.Plan(removal.Sweep{Keys: p.Keys, AllCompleted: p.AllCompleted, Gone: p.Gone, Merged: p.Merged,
		Into: p.Into, MinAge: p.MinAge, Force: p.Force})
	if err != nil {
		return CleanupResult{}, err
	}
	res := CleanupResult{Plan: plan}
	if !p.DryRun {
		if res.Removed, err = r.Clean(plan, p.Force); err != nil {
			return CleanupResult{}, err
		}
	}
	return res, nil
}

// Text is the plan as cleanup prints it (removal.PlanText), worded for a
// dry run when dryRun is set.
func (r CleanupResult) Text(dryRun bool) string { return removal.PlanText(r.Plan, dryRun) }
