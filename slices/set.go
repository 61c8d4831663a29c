package slices

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/hexid"

	"github.com/orc-state/orc-state/internal/textin"
)

// DefaultMaxRetries is the retry budget per slice when the decision
// maxRetriesPerSlice is not settled: how many times a slice may go back to
// red after its first attempt.
const DefaultMaxRetries = 2

// MaxNote bounds a note, in bytes.
const MaxNote = 4096

// Update is one slice set call.
type Update struct {
	Status         string // the target status (required)
	Commit         string // 7 to 64 hex digits (SHA-1 or SHA-256); stored lowercase; "" leaves it
	CommitVerified bool   // the caller resolved Commit in the repository
	CommitWhy      string // when not verified, why (from the caller); "does not resolve in this repository" when empty
	ActualLoc      *int   // nil leaves it
	Note           string // "" leaves it
	Force          bool   // allows leaving a terminal status, and acting on a slice another agent claims
	MaxRetries     int    // entries into red allowed after the first; 0 means DefaultMaxRetries, < 0 none (a settled 0)
	// Agent is the caller, Now the time its claim is judged at: a slice
	// with a live claim by anyone else is refused without Force. A zero
	// Now counts every recorded claim as live.
	Agent string
	Now   time.Time
}

// Result says what Set did.
type Result struct {
	From, To  string   // To is escalated when the retry budget ran out
	Attempts  int      // entries into red after the change
	Escalated bool     // the budget ran out: the CLI exits 5
	Forced    bool     // a terminal status was left with Force: journal it
	Overrode  string   // the holder of the live claim Force acted over: journal it
	Released  string   // the holder whose claim the closing status ended
	Retired   string   // the commit moved to commitHistory (reopened or replaced)
	Changed   bool     // false when the ledger is byte-for-byte unchanged
	Warnings  []string // for stderr
}

// Set applies u to the slice with id. Only the keys status, commit,
// commitVerified, actualLoc, note, attempts and commitHistory are written, and the claim
// keys removed when the slice reaches a Closing status; every other member
// keeps its bytes and position. Errors: *UsageError for a bad Update
// (checked first), *NotFoundError for an unknown id, *ClaimedError for a
// slice another agent holds a live claim on (unless Force), *EdgeError for
// a transition the machine refuses. On error the ledger is unchanged.
func (l *Ledger) Set(id string, u Update) (Result, error) {
	if err := u.check(); err != nil {
		return Result{}, err
	}
	e := l.find(id)
	if e == nil {
		return Result{}, l.notFound(id)
	}
	from, to := e.view.Status, u.Status
	r := Result{From: from}
	if e.view.Live(u.Now) && e.view.ClaimedBy != u.Agent {
		if !u.Force {
			return Result{}, claimedError(e.view, u.Now, "set")
		}
		r.Overrode = e.view.ClaimedBy
	}
	obj := e.obj.clone()
	attempts, note := e.view.Attempts, u.Note
	if from != to {
		if Terminal[from] && u.Force {
			r.Forced = true
		} else if !allowed(from, to) {
			return Result{}, &EdgeError{From: from, To: to, Allowed: Allowed(from)}
		}
		if from == "escalated" || r.Forced {
			attempts = 0 // a human moved it: a fresh budget
		}
		if to == "red" {
			retries := u.MaxRetries
			switch {
			case retries == 0:
				retries = DefaultMaxRetries
			case retries < 0:
				retries = 0 // a settled 0: one attempt, no retry
			}
			if attempts > retries { // the first attempt, then that many retries
				to, r.Escalated = "escalated", true
				note = "retry budget exhausted (" + Spent(attempts) + ")"
				if u.Note != "" {
					note += "; " + u.Note
				}
			} else {
				attempts++
			}
		}
		obj.set("status", encode(to))
		if attempts != e.view.Attempts {
			obj.set("attempts", encode(attempts))
		}
	}
	// A commit is current only while its slice is committed: leaving
	// committed (a forced reopen) moves it to commitHistory, and so does a
	// different commit replacing it.
	newCommit := strings.ToLower(u.Commit)
	if old := e.view.Commit; old != "" && (from == "committed" && to != "committed" || newCommit != "" && newCommit != old) {
		retire(&obj, e.view, u.Now)
		r.Retired = old
	}
	if u.Commit != "" {
		c := newCommit
		obj.set("commit", encode(c))
		if u.CommitVerified {
			obj.del("commitVerified")
		} else {
			obj.set("commitVerified", encode(false))
			why := u.CommitWhy
			if why == "" {
				why = "does not resolve in this repository"
			}
			r.Warnings = append(r.Warnings, fmt.Sprintf("commit %s %s; recorded as unverified", c, why))
		}
	}
	if u.ActualLoc != nil {
		obj.set("actualLoc", encode(*u.ActualLoc))
	}
	if note != "" {
		obj.set("note", encode(note))
	}
	if Closing[to] && e.view.ClaimedBy != "" {
		obj.del("claimedBy")
		obj.del("claimedUntil")
		r.Released = e.view.ClaimedBy
	}
	view, err := decodeSlice(obj)
	if err != nil {
		return Result{}, fmt.Errorf("internal error: slice %s would become invalid: %v", id, err)
	}
	r.To, r.Attempts, r.Changed = to, attempts, !sameBytes(e.obj, obj)
	e.obj, e.view = obj, view
	return r, nil
}

// retire moves the slice's commit, with its commitVerified and
// actualLoc, out of the slice into a new last entry of its commitHistory,
// stamped supersededAt now.
func retire(obj *object, view Slice, now time.Time) {
	h := object{{key: "commit", val: encode(view.Commit)}}
	if view.Unverified {
		h = append(h, member{key: "commitVerified", val: encode(false)})
	}
	if view.ActualLoc != nil {
		h = append(h, member{key: "actualLoc", val: encode(*view.ActualLoc)})
	}
	h = append(h, member{key: "supersededAt", val: encode(now.UTC().Format(TimeLayout))})
	var entry bytes.Buffer
	h.writeCompact(&entry)
	var list bytes.Buffer
	list.WriteByte('[')
	if old := obj.get("commitHistory"); old != nil && string(old) != "null" {
		elems, _ := splitArray(old) // decodeSlice accepted it
		for _, el := range elems {
			list.Write(el)
			list.WriteString(", ")
		}
	}
	list.Write(entry.Bytes())
	list.WriteByte(']')
	obj.set("commitHistory", list.Bytes())
	obj.del("commit")
	obj.del("commitVerified")
	obj.del("actualLoc")
}

// check refuses an Update before any slice is looked at.
func (u Update) check() error {
	if !isStatus(u.Status) {
		return &UsageError{Fault: fmt.Sprintf("status %q is not one of %s", u.Status, strings.Join(Statuses, ", ")), Field: "Status"}
	}
	if u.Commit != "" && !hexid.Commit(u.Commit) {
		return &UsageError{Fault: fmt.Sprintf("commit %q is not 7 to 64 hex digits", u.Commit), Field: "Commit"}
	}
	if u.ActualLoc != nil && *u.ActualLoc < 0 {
		return &UsageError{Fault: fmt.Sprintf("actual LOC %d is negative", *u.ActualLoc), Field: "ActualLoc"}
	}
	if err := textin.SingleLine("note", u.Note); err != nil {
		return &UsageError{Fault: err.Error(), Field: "Note"}
	}
	if len(u.Note) > MaxNote {
		return &UsageError{Fault: fmt.Sprintf("note is %d bytes; the limit is %d", len(u.Note), MaxNote), Field: "Note", Limit: true}
	}
	switch flag := Requires[u.Status]; {
	case flag == "--commit" && u.Commit == "":
		return &UsageError{Fault: u.Status + " requires --commit", Field: "Commit", Missing: true}
	case flag == "--note" && u.Note == "":
		return &UsageError{Fault: u.Status + " requires --note", Field: "Note", Missing: true}
	}
	return nil
}

func sameBytes(a, b object) bool {
	var x, y bytes.Buffer
	a.write(&x, "", nil)
	b.write(&y, "", nil)
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// Spent says what a slice's attempts were: "3 attempts: the first and 2
// retries".
func Spent(attempts int) string {
	retries := "retries"
	if attempts == 2 {
		retries = "retry"
	}
	if attempts <= 1 {
		return fmt.Sprintf("%d attempt, no retry", attempts)
	}
	return fmt.Sprintf("%d attempts: the first and %d %s", attempts, attempts-1, retries)
}
