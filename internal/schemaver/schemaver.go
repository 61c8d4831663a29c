// Package schemaver owns what the state dir's five JSON formats (orc.json,
// slices.json, decisions.json, worktrees.json and a migration's input)
// share about trust: the one probe of a document's top-level "schema"
// against the version a build understands, and the one InvalidError shape
// each format returns for a document it cannot trust. It is pure and
// imports nothing of the project, so the format packages can use it.
package schemaver

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Kind is what Probe found wrong with a schema member.
type Kind int

// The faults of a schema member.
const (
	Missing    Kind = iota + 1 // absent or null, or the document is no JSON object
	NotInteger                 // present but not an integer literal (or out of range)
	Newer                      // an integer above the version this build understands
)

// Error is a schema member Probe refuses.
type Error struct {
	Kind       Kind
	Raw        string  // the member's JSON text, as written ("" when missing)
	Got        int     // the version, for an integer
	Value      float64 // the member's value when it is a JSON number
	Understood int     // the version this build understands
}

func (e *Error) Error() string {
	switch e.Kind {
	case Newer:
		return fmt.Sprintf("schema %s is newer than this orc-state understands (%d)", e.Raw, e.Understood)
	case NotInteger:
		return "schema must be an integer, got " + e.Raw
	}
	return "no schema field"
}

// Probe reads the top-level "schema" member of data and compares it with
// understood. It reads only that member and leniently (a duplicate key or
// invalid UTF-8 elsewhere does not hide the version), so a format calls it
// before its strict parse: a newer document is refused as newer, never
// "repaired" or reported as some other fault. It is strict about the
// type: a version is an integer literal (1.5, 2.0, 1e0 and "2" are
// NotInteger, whatever their value). Probe returns the version when it is
// an integer no greater than understood, else an *Error. An older version
// is the format's to judge.
func Probe(data []byte, understood int) (int, *Error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return 0, &Error{Kind: Missing, Understood: understood}
	}
	return ProbeValue(top["schema"], understood)
}

// ProbeValue is Probe for a format that has already split out the schema
// member's JSON text (nil when absent).
func ProbeValue(raw []byte, understood int) (int, *Error) {
	if raw == nil || string(raw) == "null" {
		return 0, &Error{Kind: Missing, Understood: understood}
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil || !integerLit(raw) {
		v, _ := strconv.ParseFloat(string(raw), 64) // 0 for a string or bool
		return 0, &Error{Kind: NotInteger, Raw: string(raw), Value: v, Understood: understood}
	}
	if e := Check(n, understood); e != nil {
		return n, e
	}
	return n, nil
}

// Above reports whether the member is a number above understood, an
// integer (Newer) or not (NotInteger: 1.5, 2.0): what a format that must
// never convert a newer document (migrate) refuses as newer.
func (e *Error) Above() bool {
	return e.Kind == Newer || e.Kind == NotInteger && e.Value > float64(e.Understood)
}

// Check compares a version already decoded with understood: nil, or the
// Newer *Error Probe would give.
func Check(n, understood int) *Error {
	if n <= understood {
		return nil
	}
	return &Error{Kind: Newer, Raw: strconv.Itoa(n), Got: n, Value: float64(n), Understood: understood}
}

// integerLit reports whether v is digits with an optional leading minus
// (Atoi alone would accept a plus sign).
func integerLit(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(v) > 0
}

// Problem is the kind of an InvalidError: what kind of fault it is, which
// decides what can be done about it (fault.Explain maps each to a hint).
type Problem int

// The kinds of untrusted document. Damaged and Newer apply to every
// format; the others are orc.json's (Parse finds Legacy; the rest stop a
// migration).
const (
	Damaged     Problem = iota // fails the strict parse or validation
	Legacy                     // the original's vocabulary (legacy fields, no schema): migrate converts it
	NewerSchema                // a schema newer than this build understands
	Garbled                    // duplicate names or invalid UTF-8 anywhere in the file
	NotObject                  // not a JSON object
	BadSessions                // sessions is not a list of objects
	BadEntry                   // one entry cannot be converted, or is invalid once converted
	Collision                  // two branches map to one sessionId
)

// InvalidError is a document a format refuses: a state-dir file that
// cannot be trusted, or (Input set) one the user gave.
type InvalidError struct {
	Name    string // what was read, as the message names it: "orc.json", "slice plan"
	Fault   string // what is wrong, one line
	Problem Problem
	Input   bool // the bytes came from the user, not from the state dir
}

func (e *InvalidError) Error() string { return e.Name + " is invalid: " + e.Fault }

// Newer reports whether the document's schema is newer than this build
// understands.
func (e *InvalidError) Newer() bool { return e.Problem == NewerSchema }

// Invalid is the InvalidError for a refused schema member: NewerSchema for
// a number above understood (Above: the message names it as written),
// Damaged otherwise.
func (e *Error) Invalid(name string) *InvalidError {
	if e.Above() && e.Kind != Newer { // a number above understood, not an integer
		newer := Error{Kind: Newer, Raw: e.Raw, Value: e.Value, Understood: e.Understood}
		return &InvalidError{Name: name, Fault: newer.Error(), Problem: NewerSchema}
	}
	p := Damaged
	if e.Kind == Newer {
		p = NewerSchema
	}
	return &InvalidError{Name: name, Fault: e.Error(), Problem: p}
}
