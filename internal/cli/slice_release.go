package cli

import "github.com/orc-state/orc-state/internal/app"

// SliceReleaseCmd is `slice release ID`.
type SliceReleaseCmd struct {
	BranchFlag
	AgentFlag
	ID    string `arg:"" help:"The slice whose claim to give up." predictor:"slice"`
	Force bool   `help:"Remove another agent's claim (journaled)."`
}

// Run removes the agent's claim on the slice (app.SliceRelease); a slice
// nobody claims is left alone (exit 0, nothing written); another agent's
// claim is refused (exit 1) unless --force.
func (c *SliceReleaseCmd) Run(w *app.World, txn *app.Txn) error {
	return app.SliceRelease(w, txn, app.SliceReleaseParams{Branch: c.Branch, Agent: c.Agent, ID: c.ID, Force: c.Force})
}
