package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// StatusSetCmd is `status set`.
type StatusSetCmd struct {
	BranchFlag
	Status string `arg:"" enum:"${session_statuses}" help:"One of ${session_statuses_help}."`
}

// Run sets the status.
func (c *StatusSetCmd) Run(txn *app.Txn) error {
	return txn.Mutate(c.Branch, map[string]string{"status": c.Status}, func(_ *state.Tx, s *registry.Session) error {
		s.Status = c.Status
		return nil
	})
}
