package slices

import (
	"fmt"
	"strings"
)

// InvalidError is a ledger that fails validation. Read from .orc/ (Parse)
// it is invalid state, exit 3; given by the user to slice init (ParseInput)
// it is refused input, exit 2.
type InvalidError struct {
	Fault string // what is wrong, one line
	Next  string // the command or action to take next
	Input bool   // the bytes came from the user, not from the state dir
}

func (e *InvalidError) Error() string {
	if e.Input {
		return "slice plan is invalid: " + e.Fault
	}
	return "slices.json is invalid: " + e.Fault
}

// Hint names the next step.
func (e *InvalidError) Hint() string { return e.Next }

// ExitCode is 2 for refused input, 3 for invalid state on disk.
func (e *InvalidError) ExitCode() int {
	if e.Input {
		return 2
	}
	return 3
}

// NotFoundError is an id no slice has: exit 1.
type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string { return fmt.Sprintf("no slice with id %q", e.ID) }

// Hint names the listing verb.
func (e *NotFoundError) Hint() string { return "run orc-state slice list" }

// ExitCode is 1: not found.
func (e *NotFoundError) ExitCode() int { return 1 }

// EdgeError is a transition the machine does not allow: exit 2.
type EdgeError struct {
	From, To string
	Allowed  []string // the legal targets from From, in table order
}

func (e *EdgeError) Error() string {
	if len(e.Allowed) == 0 {
		return fmt.Sprintf("illegal transition %s → %s; %s is terminal", e.From, e.To, e.From)
	}
	return fmt.Sprintf("illegal transition %s → %s; from %s: %s", e.From, e.To, e.From, strings.Join(e.Allowed, ", "))
}

// Hint explains --force for terminal statuses.
func (e *EdgeError) Hint() string {
	if Terminal[e.From] {
		return "pass --force to leave a terminal status (the move is journaled)"
	}
	return ""
}

// ExitCode is 2: refused input.
func (e *EdgeError) ExitCode() int { return 2 }

// UsageError is an Update the ledger refuses before looking at any slice
// (bad status, commit, note or count; a missing --commit or --note): exit 2.
type UsageError struct {
	Fault string
	Next  string
}

func (e *UsageError) Error() string { return e.Fault }

// Hint names the flag or value to use.
func (e *UsageError) Hint() string { return e.Next }

// ExitCode is 2: refused input.
func (e *UsageError) ExitCode() int { return 2 }
