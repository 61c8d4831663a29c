package cli

import (
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// DecisionSetCmd is `decision set K V`.
type DecisionSetCmd struct {
	BranchFlag
	Key        string `arg:"" help:"Key."`
	Value      string `arg:"" help:"Value (one line)."`
	Provenance string `required:"" help:"How it was settled: ${provenances_help}." placeholder:"${provenances}"`
	Supersede  bool   `help:"Replace a settled value (the old one is kept in history)."`
}

// Run settles a key: compare-and-set inside the lock, so of concurrent
// writers of one key exactly one wins.
func (c *DecisionSetCmd) Run(w *app.World, txn *app.Txn) error {
	for _, check := range []error{decisions.CheckKey(c.Key), decisions.CheckValue(c.Value), decisions.CheckSetting(c.Key, c.Value), decisions.CheckProvenance(c.Provenance)} {
		if check != nil {
			return fault.Usagef("%v", check)
		}
	}
	if err := input.RefuseSecrets("the decision key", []byte(c.Key)); err != nil {
		return err
	}
	if err := input.RefuseSecrets("the decision value", []byte(c.Value)); err != nil {
		return err
	}
	var res decisions.SetResult
	err := txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		f, err := ledger.Decisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		if _, settled := f.Get(c.Key); !settled {
			if p := safetext.NameProblem(c.Key, safetext.MaxName); p != "" {
				// A key already stored keeps working; a new one is in the
				// safe alphabet (docs/protocol.md §4, "Names").
				return fault.Usagef("key %q %s; a new decision key is 1 to 128 characters of %s", c.Key, p, safetext.Alphabet)
			}
		}
		if res, err = f.Set(c.Key, c.Value, c.Provenance, c.Supersede, w.Stamp()); err != nil {
			return err
		}
		if res == decisions.Unchanged {
			return nil
		}
		tx.Write(s.SessionID, state.DecisionsFile, f.Marshal())
		tx.Touch(s.SessionID, map[string]any{"key": c.Key, "value": c.Value, "provenance": c.Provenance, "result": res.String()})
		return nil
	})
	return err
}
