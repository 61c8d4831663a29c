package decisions

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/schemaver"
)

// InvalidError is a decisions.json that cannot be trusted (Name
// "decisions.json"): the one shape every format returns.
type InvalidError = schemaver.InvalidError

// fileName names the file in its InvalidErrors.
const fileName = "decisions.json"

// InputError is a key, value, provenance or time Set refuses.
type InputError struct{ Fault string }

func (e *InputError) Error() string { return e.Fault }

// SettledError is a compare-and-set that lost: the key holds another value
// and supersede was not asked for.
type SettledError struct {
	Key, Value, Provenance string // the value already settled
}

func (e *SettledError) Error() string {
	return fmt.Sprintf("'%s' already settled (%s)", e.Key, e.Value)
}
