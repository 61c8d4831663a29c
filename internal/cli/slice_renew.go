package cli

import "github.com/orc-state/orc-state/internal/app"

// SliceRenewCmd is `slice renew ID`.
type SliceRenewCmd struct {
	BranchFlag
	AgentFlag
	LeaseFlag
	ID string `arg:"" help:"The slice whose claim to renew (yours)." predictor:"slice"`
}

// Run sets the end of the agent's claim on the slice to the lease from
// now (app.SliceRenew); exit 1 when the slice is unknown, unclaimed or
// another agent's.
func (c *SliceRenewCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return app.SliceRenew(o, w, txn, app.SliceRenewParams{Branch: c.Branch, Agent: c.Agent, ID: c.ID, Lease: c.Lease})
}
