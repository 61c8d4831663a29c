package app

import (
	"time"

	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceRenewParams are slice renew's values: the session's key
// (--session, "" for the current branch's), the agent (--agent, "" for the
// default agent id), the slice, and the lease.
type SliceRenewParams struct {
	Branch, Agent, ID string
	Lease             time.Duration
}

// SliceRenew sets the end of the agent's claim on the slice to the lease
// from now, under the lock, journaled, and warns when the lease had
// already ended (nobody took the slice meanwhile). It returns the refusal:
// exit 1 when the slice is unknown, unclaimed or another agent's.
func SliceRenew(o *Streams, w *World, txn *Txn, p SliceRenewParams) error {
	agent, err := sliceAgentWithLease(w, txn.Where(), p.Agent, p.Lease)
	if err != nil {
		return err
	}
	now := w.Now()
	var r slices.ClaimResult
	err = txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) error {
		l, err := ledger.Read(tx, s.SessionID)
		if err != nil {
			return err
		}
		if r, err = l.Renew(p.ID, agent, now, p.Lease); err != nil || !r.Changed {
			return err
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		tx.Touch(s.SessionID, map[string]any{"id": p.ID, "agent": agent, "until": r.Until.Format(slices.TimeLayout),
			"lease": p.Lease.String(), "lapsed": r.Lapsed})
		return nil
	})
	if err != nil {
		return err
	}
	if r.Lapsed {
		o.Warn("your lease on slice %s had ended; nobody took the slice, so it is renewed", p.ID)
	}
	return nil
}
