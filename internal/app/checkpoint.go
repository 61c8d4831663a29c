package app

import (
	"github.com/orc-state/orc-state/internal/autocheckpoint"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// Checkpoint is `checkpoint`: it writes the Auto-checkpoint section of the
// session of branch ("" for the run's own) with trigger, already checked.
// Git is asked first, and its process ends before the lock is taken; the
// phase and slices are read inside the lock so they match the frontmatter
// written with them. The digest is never touched and updatedAt is not
// bumped. It returns the refusal, if any.
func Checkpoint(w *World, txn *Txn, branch, trigger string) error {
	d, _, s, err := txn.where.Session(branch)
	if err != nil {
		return err
	}
	g := verify.ObserveOnly(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	return writeAutoCheckpoint(w, txn, s.SessionID, g, trigger)
}

// writeAutoCheckpoint writes the Auto-checkpoint of session id from what
// git said (g, gathered before the lock; autocheckpoint.Write): checkpoint
// and the hooks that write it share it.
func writeAutoCheckpoint(w *World, txn *Txn, id string, g verify.Reality, trigger string) error {
	return txn.OnChoice(selection.ByID(id), func(tx *state.Tx, s *registry.Session) error {
		return autocheckpoint.Write(tx, s, g, trigger, w.Stamp())
	})
}
