package cli

import (
	"fmt"
	"time"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// AgentFlag names the agent a claim belongs to.
type AgentFlag struct {
	Agent string `help:"Who claims (default: this worktree's bound agent, else $ORC_ACTOR, else this worktree's path)." placeholder:"NAME"`
}

// LeaseFlag is how long a claim lasts.
type LeaseFlag struct {
	Lease time.Duration `default:"30m" help:"How long the claim lasts from now: 1s to 24h, default 30m; renew before it ends." placeholder:"DUR"`
}

// SliceClaimCmd is `slice claim`.
type SliceClaimCmd struct {
	BranchFlag
	AgentFlag
	LeaseFlag
	JSON bool `name:"json" help:"Print the claimed slice as JSON instead of its id."`
}

// Run takes the first ready slice for the agent, under the lock, and
// prints its id (app.SliceClaim, which releases the claim again when it
// could not be printed); exit 1 when nothing is ready, saying why.
func (c *SliceClaimCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	p := app.SliceClaimParams{Branch: c.Branch, Agent: c.Agent, Lease: c.Lease}
	return app.SliceClaim(o, w, txn, p, func(cl app.SliceClaimed) (err error) {
		if c.JSON {
			_, err = o.Stdout.Write(append(cl.View, '\n'))
		} else {
			_, err = fmt.Fprintln(o.Stdout, safetext.Escape(cl.ID))
		}
		return err
	})
}
