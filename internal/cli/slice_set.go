package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
)

// SliceSetCmd is `slice set ID --status S`.
type SliceSetCmd struct {
	BranchFlag
	AgentFlag
	ID        string `arg:"" help:"Slice id." predictor:"slice"`
	Status    string `required:"" enum:"${slice_statuses}" help:"Target status."`
	Commit    string `help:"The commit (required for committed): a sha, or any revision git resolves (HEAD, a branch, a tag, HEAD~1); the full sha is stored." placeholder:"REV"`
	ActualLoc *int   `name:"actual-loc" help:"Lines of code actually changed." placeholder:"N"`
	Note      string `help:"Note (required for skipped and escalated)." placeholder:"S"`
	Force     bool   `help:"Leave a terminal status (committed, skipped), or act on a slice another agent claims; journaled."`
}

// Help is the detail of slice set --help: the machine, from its table.
func (c *SliceSetCmd) Help() string { return app.SliceSetHelp() }

// Run moves one slice through the status machine (app.SliceSet).
func (c *SliceSetCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	if err := input.CheckText("--note", []byte(c.Note)); err != nil {
		return err
	}
	if c.ActualLoc != nil && *c.ActualLoc < 0 {
		return fault.Usagef("--actual-loc %d is negative", *c.ActualLoc)
	}
	return app.SliceSet(o, w, sd, txn, app.SliceSetParams{Branch: c.Branch, Agent: c.Agent, ID: c.ID,
		Status: c.Status, Commit: c.Commit, Note: c.Note, ActualLoc: c.ActualLoc, Force: c.Force})
}
