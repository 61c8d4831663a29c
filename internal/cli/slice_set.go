package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/commitref"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
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
func (c *SliceSetCmd) Help() string { return slices.MachineText() }

// Run moves one slice through the status machine.
func (c *SliceSetCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, where *selection.Where, txn *app.Txn) error {
	if err := input.CheckText("--note", []byte(c.Note)); err != nil {
		return err
	}
	if c.ActualLoc != nil && *c.ActualLoc < 0 {
		return fault.Usagef("--actual-loc %d is negative", *c.ActualLoc)
	}
	// An unusable default agent id only matters on a claimed slice, where
	// it matches no holder: callers that never claim keep working.
	agent, err := where.Agent(c.Agent, w.Wd())
	if err != nil && c.Agent != "" {
		return err
	}
	u := slices.Update{Status: c.Status, Commit: c.Commit, ActualLoc: c.ActualLoc, Note: c.Note, Force: c.Force,
		Agent: agent, Now: w.Now()}
	if c.Commit != "" {
		if u.Commit, u.CommitVerified, u.CommitWhy, err = resolveCommit(sd, c.Commit); err != nil {
			return err
		}
	}
	var res slices.Result
	var id string // the session, for the hint
	err = txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) (err error) {
		id = s.SessionID
		res, err = ledger.Set(tx, s.SessionID, c.ID, u, c.Commit)
		return err
	})
	if err != nil {
		return err
	}
	for _, warning := range res.Warnings {
		o.Warn("%s", warning)
	}
	if res.Escalated {
		return &fault.Error{Code: fault.Escalation, Msg: fmt.Sprintf("slice %s used its retry budget (%s); it is now escalated", c.ID, slices.Spent(res.Attempts)),
			Hint: "a human decides: orc-state slice set --status=STATUS --session=" + safetext.Quote(id) + " " + safetext.Operand(c.ID) + " (STATUS: pending or red to try again), or --status=skipped --note=WHY"}
	}
	return nil
}

// resolveCommit is what --commit rev records (commitref.Resolve),
// asked of git before the lock.
func resolveCommit(sd *app.StateDir, rev string) (commit string, verified bool, why string, err error) {
	d, err := sd.Dir()
	if err != nil {
		return "", false, "", err
	}
	return commitref.Resolve(d.Git, rev)
}
