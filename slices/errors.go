package slices

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/schemaver"
)

// InvalidError is a ledger that fails validation, read from the state dir
// (Parse; Name "slices.json") or given by the user to slice init
// (ParseInput; Name "slice plan", Input set): the one shape every format
// returns.
type InvalidError = schemaver.InvalidError

// NotFoundError is an id no slice has; Near are the ledger's ids closest
// to it (suggest.Near), for a "did you mean".
type NotFoundError struct {
	ID   string
	Near []string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("no slice with id %q", e.ID) }

// EdgeError is a transition the machine does not allow.
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

// UsageError is input the ledger refuses before looking at any slice: an
// Update's bad status, commit, count or note, a commit or note the target
// status requires and the Update lacks, or a claim's bad agent or lease.
type UsageError struct {
	Fault   string
	Field   string // the field at fault: Status, Commit, ActualLoc, Note, Agent or Lease
	Missing bool   // the target status requires Field and it is empty
	Limit   bool   // Field is over its size limit
}

func (e *UsageError) Error() string { return e.Fault }
