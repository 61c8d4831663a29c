package app

import (
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
)

// DecisionShown is what decision get prints: the whole decisions file,
// or one line.
type DecisionShown struct {
	File []byte // the whole file, as written, when no key was asked
	Line string // the key's raw value, or its echo line; not yet escaped
}

// DecisionGet reads the settled decisions of the session for branch (the
// current branch when "") and returns the whole file when key is "",
// else the key's raw value, or with echo its line "using settled
// decision: K=V (provenance)" (decisions.Echo). A session with no
// settled decisions, and a key that is not settled, are not found.
func DecisionGet(txn *Txn, branch, key string, echo bool) (DecisionShown, error) {
	d, _, s, err := txn.Where().Session(branch)
	if err != nil {
		return DecisionShown{}, err
	}
	data, err := d.ReadFile(s.SessionID, state.DecisionsFile)
	if err != nil {
		return DecisionShown{}, err
	}
	if data == nil {
		return DecisionShown{}, fault.NotFoundf("session %s has no settled decisions", s.SessionID)
	}
	f, err := decisions.Parse(data)
	if err != nil {
		return DecisionShown{}, err
	}
	if key == "" {
		return DecisionShown{File: f.Marshal()}, nil
	}
	dec, ok := f.Get(key)
	if !ok {
		return DecisionShown{}, fault.NotFoundf("%q is not settled", key)
	}
	if echo {
		return DecisionShown{Line: decisions.Echo(key, dec)}, nil
	}
	return DecisionShown{Line: dec.Value}, nil
}
