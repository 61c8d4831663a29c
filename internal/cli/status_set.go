package cli

import "github.com/orc-state/orc-state/internal/app"

// StatusSetCmd is `status set`.
type StatusSetCmd struct {
	BranchFlag
	Status string `arg:"" enum:"${session_statuses}" help:"One of ${session_statuses_help}."`
}

// Run sets the status (app.StatusSet).
func (c *StatusSetCmd) Run(txn *app.Txn) error {
	return app.StatusSet(txn, c.Branch, c.Status)
}
