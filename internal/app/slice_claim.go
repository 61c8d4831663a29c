package app

import (
	"time"

	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/worktrees"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceClaimParams are slice claim's values: the session's key (--session,
// "" for the current branch's), the agent (--agent, "" for the default
// agent id) and the lease.
type SliceClaimParams struct {
	Branch, Agent string
	Lease         time.Duration
}

// SliceClaimed is the slice a claim took, as slice claim prints it: its
// id, and the slice as JSON (--json).
type SliceClaimed struct {
	ID   string
	View []byte
}

// SliceClaim takes the first ready slice for the agent, under the lock,
// warns of an expired claim it took over and of the agent's other live
// claims, then hands the slice to show, which prints it. When show fails,
// nobody learned which slice is held: a claim nobody knows of would block
// it for the whole lease, so it is released in this run
// (docs/protocol.md §7), unless it changed meanwhile, and a warning says
// which. It returns the claim's refusal (exit 1 when nothing is ready,
// saying why), else show's error.
func SliceClaim(o *Streams, w *World, txn *Txn, p SliceClaimParams, show func(SliceClaimed) error) error {
	agent, err := sliceAgentWithLease(w, txn.Where(), p.Agent, p.Lease)
	if err != nil {
		return err
	}
	if err := worktrees.CheckNewAgent(p.Agent); err != nil {
		return err
	}
	now := w.Now()
	var claimed ledger.Claimed
	err = txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) (err error) {
		claimed, err = ledger.Claim(tx, s.SessionID, agent, now, p.Lease)
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
	err = show(SliceClaimed{ID: r.ID, View: view})
	if err != nil {
		if rerr := sliceUnclaimUnprinted(w, txn, p.Branch, r, agent); rerr != nil {
			o.Warn("slice %s stays claimed by %s until %s: its id could not be printed, and releasing it failed too (%v)", r.ID, agent, r.Until.Format(slices.TimeLayout), rerr)
		} else {
			o.Warn("slice %s was released again: its id could not be printed", r.ID)
		}
	}
	return err
}

// sliceUnclaimUnprinted releases the claim r made for agent, in a
// transaction of its own, when it is still agent's with the same end
// (nobody renewed or took it meanwhile); journaled with why.
func sliceUnclaimUnprinted(w *World, txn *Txn, branch string, r slices.ClaimResult, agent string) error {
	now := w.Now()
	return txn.OnSession(branch, func(tx *state.Tx, s *registry.Session) error {
		return ledger.Unclaim(tx, s.SessionID, r, agent, now)
	})
}
