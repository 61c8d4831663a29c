package decisions

import "fmt"

// InvalidError is a decisions.json that cannot be trusted.
type InvalidError struct {
	Fault string // what is wrong, one line
	Newer bool   // the schema is newer than this build understands
}

func (e *InvalidError) Error() string { return "decisions.json is invalid: " + e.Fault }

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
