package app

import (
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// StatusSet sets the status of the session for branch (the current
// branch when ""); the parser has already held status to the session
// statuses.
func StatusSet(txn *Txn, branch, status string) error {
	return txn.Mutate(branch, map[string]string{"status": status}, func(_ *state.Tx, s *registry.Session) error {
		s.Status = status
		return nil
	})
}
