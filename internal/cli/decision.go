package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Run settles a key: compare-and-set inside the lock, so of concurrent
// writers of one key exactly one wins.
func (c *DecisionSetCmd) Run(e *Env) error {
	for _, check := range []error{decisions.CheckKey(c.Key), decisions.CheckValue(c.Value), decisions.CheckProvenance(c.Provenance)} {
		if check != nil {
			return fault.Usagef("%v", check)
		}
	}
	if err := refuseSecrets("the decision key", []byte(c.Key)); err != nil {
		return err
	}
	if err := refuseSecrets("the decision value", []byte(c.Value)); err != nil {
		return err
	}
	var res decisions.SetResult
	err := e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		f, err := readDecisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		if res, err = f.Set(c.Key, c.Value, c.Provenance, c.Supersede, registry.Now()); err != nil {
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

// Run prints one raw value, the echo line, or the whole file.
func (c *DecisionGetCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	data, err := d.ReadFile(s.SessionID, state.DecisionsFile)
	if err != nil {
		return err
	}
	if data == nil {
		return fault.NotFoundf("session %s has no settled decisions", s.SessionID)
	}
	f, err := decisions.Parse(data)
	if err != nil {
		return err
	}
	if c.Key == "" {
		_, err := e.Stdout.Write(f.Marshal())
		return err
	}
	dec, ok := f.Get(c.Key)
	if !ok {
		return fault.NotFoundf("%q is not settled", c.Key)
	}
	if c.Echo {
		fmt.Fprintln(e.Stdout, decisions.Echo(c.Key, dec))
		return nil
	}
	fmt.Fprintln(e.Stdout, dec.Value)
	return nil
}
