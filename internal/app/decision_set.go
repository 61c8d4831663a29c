package app

import (
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// DecisionSetParams are decision set's arguments: the session's --branch
// ("" for the current branch), the key and its value, how it was settled,
// and whether a settled value may be replaced.
type DecisionSetParams struct {
	Branch, Key, Value, Provenance string
	Supersede                      bool
}

// DecisionSet settles a key: compare-and-set inside the lock, so of
// concurrent writers of one key exactly one wins. The key, the value and
// the provenance are checked first (decisions' rules, then no credential
// in the key or the value); a key not yet settled must be a safe name.
// Setting the value a key already has writes nothing.
func DecisionSet(w *World, txn *Txn, p DecisionSetParams) error {
	for _, check := range []error{decisions.CheckKey(p.Key), decisions.CheckValue(p.Value), decisions.CheckSetting(p.Key, p.Value), decisions.CheckProvenance(p.Provenance)} {
		if check != nil {
			return fault.Usagef("%v", check)
		}
	}
	if err := input.RefuseSecrets("the decision key", []byte(p.Key)); err != nil {
		return err
	}
	if err := input.RefuseSecrets("the decision value", []byte(p.Value)); err != nil {
		return err
	}
	var res decisions.SetResult
	err := txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) error {
		f, err := ledger.Decisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		if _, settled := f.Get(p.Key); !settled {
			if problem := safetext.NameProblem(p.Key, safetext.MaxName); problem != "" {
				// A key already stored keeps working; a new one is in the
				// safe alphabet (docs/protocol.md §4, "Names").
				return fault.Usagef("key %q %s; a new decision key is 1 to 128 characters of %s", p.Key, problem, safetext.Alphabet)
			}
		}
		if res, err = f.Set(p.Key, p.Value, p.Provenance, p.Supersede, w.Stamp()); err != nil {
			return err
		}
		if res == decisions.Unchanged {
			return nil
		}
		tx.Write(s.SessionID, state.DecisionsFile, f.Marshal())
		tx.Touch(s.SessionID, map[string]any{"key": p.Key, "value": p.Value, "provenance": p.Provenance, "result": res.String()})
		return nil
	})
	return err
}
