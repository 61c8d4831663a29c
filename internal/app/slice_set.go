package app

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/commitref"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceSetParams are slice set's values: the session's key (--session,
// "" for the current branch's), the agent (--agent, "" for the default
// agent id), the slice, and the change its flags ask for (--commit as
// given, a revision).
type SliceSetParams struct {
	Branch, Agent, ID    string
	Status, Commit, Note string
	ActualLoc            *int
	Force                bool
}

// SliceSetHelp is the detail of slice set --help: the machine, from its
// table.
func SliceSetHelp() string { return slices.MachineText() }

// SliceSet moves one slice through the status machine, under the lock,
// journaled (ledger.Set): --commit is resolved by git before the lock,
// and each warning of the move is printed. It returns the refusal, or an
// escalation (exit 5) when the slice used its retry budget, with the hint
// of what a human decides.
func SliceSet(o *Streams, w *World, sd *StateDir, txn *Txn, p SliceSetParams) error {
	// An unusable default agent id only matters on a claimed slice, where
	// it matches no holder: callers that never claim keep working.
	agent, err := txn.Where().Agent(p.Agent, w.Wd())
	if err != nil && p.Agent != "" {
		return err
	}
	u := slices.Update{Status: p.Status, Commit: p.Commit, ActualLoc: p.ActualLoc, Note: p.Note, Force: p.Force,
		Agent: agent, Now: w.Now()}
	if p.Commit != "" {
		if u.Commit, u.CommitVerified, u.CommitWhy, err = sliceResolveCommit(sd, p.Commit); err != nil {
			return err
		}
	}
	var res slices.Result
	var id string // the session, for the hint
	err = txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) (err error) {
		id = s.SessionID
		res, err = ledger.Set(tx, s.SessionID, p.ID, u, p.Commit)
		return err
	})
	if err != nil {
		return err
	}
	for _, warning := range res.Warnings {
		o.Warn("%s", warning)
	}
	if res.Escalated {
		return &fault.Error{Code: fault.Escalation, Msg: fmt.Sprintf("slice %s used its retry budget (%s); it is now escalated", p.ID, slices.Spent(res.Attempts)),
			Hint: "a human decides: orc-state slice set --status=STATUS --session=" + safetext.Quote(id) + " " + safetext.Operand(p.ID) + " (STATUS: pending or red to try again), or --status=skipped --note=WHY"}
	}
	return nil
}

// sliceResolveCommit is what --commit rev records (commitref.Resolve),
// asked of git before the lock.
func sliceResolveCommit(sd *StateDir, rev string) (commit string, verified bool, why string, err error) {
	d, err := sd.Dir()
	if err != nil {
		return "", false, "", err
	}
	return commitref.Resolve(d.Git, rev)
}
