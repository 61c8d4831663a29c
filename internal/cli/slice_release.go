package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// SliceReleaseCmd is `slice release ID`.
type SliceReleaseCmd struct {
	BranchFlag
	AgentFlag
	ID    string `arg:"" help:"The slice whose claim to give up." predictor:"slice"`
	Force bool   `help:"Remove another agent's claim (journaled)."`
}

// Run removes the agent's claim on the slice; a slice nobody claims is
// left alone (exit 0, nothing written); another agent's claim is refused
// (exit 1) unless --force.
func (c *SliceReleaseCmd) Run(w *app.World, where *selection.Where, txn *app.Txn) error {
	agent, err := where.Agent(c.Agent, w.Wd())
	if err != nil {
		return err
	}
	now := w.Now()
	return txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		l, err := ledger.Read(tx, s.SessionID)
		if err != nil {
			return err
		}
		r, err := l.Release(c.ID, agent, now, c.Force)
		if err != nil || !r.Changed {
			return err
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		args := map[string]any{"id": c.ID, "agent": agent}
		if r.Took != "" {
			args["forced"], args["took"] = true, r.Took // another agent's claim
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}
