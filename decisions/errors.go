package decisions

import "fmt"

// InvalidError is a decisions.json that cannot be trusted: exit 3.
type InvalidError struct {
	Fault string // what is wrong, one line
	Next  string // the command to run next
}

func (e *InvalidError) Error() string { return "decisions.json is invalid: " + e.Fault }

// Hint names the next command.
func (e *InvalidError) Hint() string { return e.Next }

// ExitCode is 3: invalid state on disk.
func (e *InvalidError) ExitCode() int { return 3 }

// InputError is a key, value, provenance or time Set refuses: exit 2.
type InputError struct{ Fault string }

func (e *InputError) Error() string { return e.Fault }

// ExitCode is 2: refused input.
func (e *InputError) ExitCode() int { return 2 }

// SettledError is a compare-and-set that lost: the key holds another value
// and supersede was not asked for. Exit 1.
type SettledError struct {
	Key, Value, Provenance string // the value already settled
}

func (e *SettledError) Error() string {
	return fmt.Sprintf("'%s' already settled (%s); pass --supersede to change it", e.Key, e.Value)
}

// ExitCode is 1: the write-once key is already settled.
func (e *SettledError) ExitCode() int { return 1 }
