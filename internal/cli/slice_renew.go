package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceRenewCmd is `slice renew ID`.
type SliceRenewCmd struct {
	BranchFlag
	AgentFlag
	LeaseFlag
	ID string `arg:"" help:"The slice whose claim to renew (yours)." predictor:"slice"`
}

// Run sets the end of the agent's claim on the slice to the lease from
// now; exit 1 when the slice is unknown, unclaimed or another agent's.
func (c *SliceRenewCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	agent, err := agentWithLease(w, where, c.AgentFlag, c.LeaseFlag)
	if err != nil {
		return err
	}
	now := w.Now()
	var r slices.ClaimResult
	err = txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		l, err := ledger.Read(tx, s.SessionID)
		if err != nil {
			return err
		}
		if r, err = l.Renew(c.ID, agent, now, c.Lease); err != nil || !r.Changed {
			return err
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		tx.Touch(s.SessionID, map[string]any{"id": c.ID, "agent": agent, "until": r.Until.Format(slices.TimeLayout),
			"lease": c.Lease.String(), "lapsed": r.Lapsed})
		return nil
	})
	if err != nil {
		return err
	}
	if r.Lapsed {
		o.Warn("your lease on slice %s had ended; nobody took the slice, so it is renewed", c.ID)
	}
	return nil
}
