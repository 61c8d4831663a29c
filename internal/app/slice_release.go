package app

import (
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// SliceReleaseParams are slice release's values: the session's key
// (--session, "" for the current branch's), the agent (--agent, "" for the
// default agent id), the slice, and --force.
type SliceReleaseParams struct {
	Branch, Agent, ID string
	Force             bool
}

// SliceRelease removes the agent's claim on the slice, under the lock,
// journaled (with the claim it took when forced); a slice nobody claims is
// left alone (nil, nothing written); another agent's claim is refused
// (exit 1) unless --force. It prints nothing.
func SliceRelease(w *World, txn *Txn, p SliceReleaseParams) error {
	agent, err := txn.Where().Agent(p.Agent, w.Wd())
	if err != nil {
		return err
	}
	now := w.Now()
	return txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) error {
		l, err := ledger.Read(tx, s.SessionID)
		if err != nil {
			return err
		}
		r, err := l.Release(p.ID, agent, now, p.Force)
		if err != nil || !r.Changed {
			return err
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		args := map[string]any{"id": p.ID, "agent": agent}
		if r.Took != "" {
			args["forced"], args["took"] = true, r.Took // another agent's claim
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}
