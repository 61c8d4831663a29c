package cli

import (
	"fmt"
	"time"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/worktrees"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
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
// prints its id; exit 1 when nothing is ready, saying why.
func (c *SliceClaimCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	agent, err := agentWithLease(w, where, c.AgentFlag, c.LeaseFlag)
	if err != nil {
		return err
	}
	if err := worktrees.CheckNewAgent(c.Agent); err != nil {
		return err
	}
	now := w.Now()
	var claimed ledger.Claimed
	err = txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) (err error) {
		claimed, err = ledger.Claim(tx, s.SessionID, agent, now, c.Lease)
		return err
	})
	if err != nil {
		return err
	}
	r, view, held := claimed.ClaimResult, claimed.View, claimed.Held
	if r.Took != "" {
		o.Warn("slice %s was claimed by %s, whose lease had ended; it is yours now: check its status first", r.ID, r.Took)
	}
	for _, h := range held {
		o.Warn("you also hold slice %s until %s", h.ID, h.Until.Format(slices.TimeLayout))
	}
	if c.JSON {
		_, err = o.Stdout.Write(append(view, '\n'))
	} else {
		_, err = fmt.Fprintln(o.Stdout, safetext.Escape(r.ID))
	}
	if err != nil {
		// Nobody learned which slice is held: a claim nobody knows of
		// would block it for the whole lease. It is released in this run
		// (docs/protocol.md §7), unless it changed meanwhile.
		if rerr := unclaimUnprinted(w, txn, c.Branch, r, agent); rerr != nil {
			o.Warn("slice %s stays claimed by %s until %s: its id could not be printed, and releasing it failed too (%v)", r.ID, agent, r.Until.Format(slices.TimeLayout), rerr)
		} else {
			o.Warn("slice %s was released again: its id could not be printed", r.ID)
		}
	}
	return err
}

// unclaimUnprinted releases the claim r made for agent, in a transaction
// of its own, when it is still agent's with the same end (nobody renewed
// or took it meanwhile); journaled with why.
func unclaimUnprinted(w *app.World, txn *app.Txn, branch string, r slices.ClaimResult, agent string) error {
	now := w.Now()
	return txn.OnSession(branch, func(tx *state.Tx, s *registry.Session) error {
		return ledger.Unclaim(tx, s.SessionID, r, agent, now)
	})
}

// agentWithLease resolves the agent and checks the lease, which claim and
// renew both need before they take the lock.
func agentWithLease(w *app.World, where *selection.Where, a AgentFlag, l LeaseFlag) (string, error) {
	agent, err := where.Agent(a.Agent, w.Wd())
	if err != nil {
		return "", err
	}
	return agent, slices.CheckLease(l.Lease)
}
