package app

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/registry"
)

// Got is what get prints: the whole entry, or one of its top-level
// fields raw.
type Got struct {
	Session *registry.Session // the entry, when no field was asked
	Field   json.RawMessage   // the field's JSON value; nil when it is absent
}

// Get returns the registry entry of the session key names (a branch or a
// sessionId; the current branch when ""), or, when field is not "", that
// top-level field of its canonical JSON. A field no schema-1 entry has is
// refused, naming the entry's fields; an optional one that is absent is
// nil (get prints nothing).
func Get(txn *Txn, key, field string) (Got, error) {
	_, _, s, err := txn.Where().Session(key)
	if err != nil {
		return Got{}, err
	}
	if field == "" {
		return Got{Session: s}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(s.Canonical(), &fields); err != nil {
		return Got{}, err
	}
	raw, ok := fields[field]
	if !ok {
		if !getKnownField(field) {
			names := make([]string, 0, len(fields))
			for k := range fields {
				names = append(names, k)
			}
			sort.Strings(names)
			return Got{}, fault.Usagef("unknown field %q", field).WithHint("fields: %s", strings.Join(names, ", "))
		}
		return Got{}, nil // an optional field that is absent prints nothing
	}
	return Got{Field: raw}, nil
}

// getKnownField reports whether name is a field of a schema-1 entry.
func getKnownField(name string) bool {
	for _, f := range []string{"scope", "repos", "perRepoState", "gate"} {
		if f == name {
			return true
		}
	}
	return false
}
