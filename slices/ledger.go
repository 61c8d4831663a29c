package slices

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/internal/suggest"
)

// Schema is the ledger format version this build reads and writes.
const Schema = 1

// Ledger is a parsed slices.json: the top-level members and each slice as
// ordered raw members, plus the typed view of every slice.
type Ledger struct {
	top    object // the "slices" member's value is rendered from slices
	slices []entry
}

type entry struct {
	obj  object
	view Slice
}

// Parse reads a ledger from the state dir. A fault is an *InvalidError.
func Parse(data []byte) (*Ledger, error) { return parse(data, false) }

// ParseInput reads a plan given to slice init. A fault is an *InvalidError
// with Input set.
func ParseInput(data []byte) (*Ledger, error) { return parse(data, true) }

func parse(data []byte, input bool) (*Ledger, error) {
	name := "slices.json"
	if input {
		name = "slice plan"
	}
	fail := func(format string, args ...any) error {
		return &InvalidError{Name: name, Fault: fmt.Sprintf(format, args...), Input: input}
	}
	if err := strictjson.Check(data); err != nil {
		return nil, fail("%s", err)
	}
	top, ok := splitObject(data)
	if !ok {
		return nil, fail("the top level is not a JSON object")
	}
	switch n, e := schemaver.ProbeValue(top.get("schema"), Schema); {
	case e != nil && e.Kind == schemaver.NotInteger:
		return nil, fail("schema must be an integer, got %s", clip(top.get("schema")))
	case e != nil && e.Kind == schemaver.Newer:
		ie := e.Invalid(name)
		ie.Input = input
		return nil, ie
	case e == nil && n != Schema:
		return nil, fail("schema is %d; expected %d", n, Schema)
	}
	for _, k := range []string{"planPath", "planSha256"} {
		if v := top.get(k); v != nil && string(v) != "null" {
			if _, err := str(v, k); err != nil {
				return nil, fail("%s", err)
			}
		}
	}
	raw := top.get("slices")
	if raw == nil {
		return nil, fail("no slices array")
	}
	elems, ok := splitArray(raw)
	if !ok {
		return nil, fail("slices must be an array, got %s", clip(raw))
	}
	l := &Ledger{top: top, slices: make([]entry, 0, len(elems))}
	seen := make(map[string]bool, len(elems))
	views := make([]Slice, 0, len(elems))
	for i, e := range elems {
		obj, ok := splitObject(e)
		if !ok {
			return nil, fail("slices[%d] is not an object", i)
		}
		s, err := decodeSlice(obj)
		if err != nil {
			if s.ID == "" {
				return nil, fail("slices[%d]: %s", i, err)
			}
			return nil, fail("slice %s: %s", s.ID, err)
		}
		if seen[s.ID] {
			return nil, fail("duplicate slice id %s", s.ID)
		}
		seen[s.ID] = true
		l.slices = append(l.slices, entry{obj: obj, view: s})
		views = append(views, s)
	}
	if faults := graphFaults(views); len(faults) > 0 {
		return nil, fail("slice %s: %s", faults[0].slice, faults[0].detail)
	}
	if input {
		// A new plan's ids are in the safe alphabet, so every command that
		// names one can be pasted as printed; a ledger already stored
		// keeps its ids (and they are quoted where printed).
		for _, v := range views {
			if p := safetext.NameProblem(v.ID, safetext.MaxName); p != "" {
				return nil, fail("slice id %s %s; a new slice id is 1 to 128 characters of %s", strconv.Quote(v.ID), p, safetext.Alphabet)
			}
		}
	}
	return l, nil
}

// Marshal renders the ledger: objects one member per line with a 2-space
// indent and a trailing newline. Members keep their order, keys and values
// their original bytes; only values Set changed are written anew. So
// Marshal(Parse(Marshal(l))) equals Marshal(l), and a plan already laid out
// this way comes back byte-for-byte.
func (l *Ledger) Marshal() []byte {
	var buf bytes.Buffer
	l.top.write(&buf, "", func(m member) bool {
		if m.key != "slices" {
			return false
		}
		if len(l.slices) == 0 {
			buf.WriteString("[]")
			return true
		}
		buf.WriteByte('[')
		for i, e := range l.slices {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString("\n    ")
			e.obj.write(&buf, "    ", nil)
		}
		buf.WriteString("\n  ]")
		return true
	})
	buf.WriteByte('\n')
	return buf.Bytes()
}

// PlanPath is the top-level planPath, or "".
func (l *Ledger) PlanPath() string { return l.topString("planPath") }

// PlanSHA256 is the top-level planSha256, or "".
func (l *Ledger) PlanSHA256() string { return l.topString("planSha256") }

func (l *Ledger) topString(key string) string {
	s, _ := str(l.top.get(key), key)
	return s
}

// Slices returns the typed view of every slice, in ledger order.
func (l *Ledger) Slices() []Slice {
	out := make([]Slice, len(l.slices))
	for i, e := range l.slices {
		out[i] = e.view
	}
	return out
}

// Get returns the view of the slice with id.
func (l *Ledger) Get(id string) (Slice, bool) {
	if e := l.find(id); e != nil {
		return e.view, true
	}
	return Slice{}, false
}

// SliceJSON renders the slice with id as Marshal writes it inside the
// ledger (every member, planner fields included), without indentation
// beyond its own members.
func (l *Ledger) SliceJSON(id string) ([]byte, bool) {
	e := l.find(id)
	if e == nil {
		return nil, false
	}
	var buf bytes.Buffer
	e.obj.write(&buf, "", nil)
	return buf.Bytes(), true
}

// notFound is the error for id, which no slice has.
func (l *Ledger) notFound(id string) *NotFoundError {
	return &NotFoundError{ID: id, Near: suggest.Near(id, l.IDs())}
}

func (l *Ledger) find(id string) *entry {
	for i := range l.slices {
		if l.slices[i].view.ID == id {
			return &l.slices[i]
		}
	}
	return nil
}

// IDs returns the slice ids in ledger order.
func (l *Ledger) IDs() []string {
	ids := make([]string, len(l.slices))
	for i, e := range l.slices {
		ids[i] = e.view.ID
	}
	return ids
}

// Status returns the status of the slice with id ("pending" when the field
// is absent).
func (l *Ledger) Status(id string) (string, bool) {
	s, ok := l.Get(id)
	return s.Status, ok
}

// HasProgress reports whether any slice is not pending: slice init refuses
// to overwrite such a ledger without --force.
func (l *Ledger) HasProgress() bool {
	for _, e := range l.slices {
		if e.view.Status != "pending" {
			return true
		}
	}
	return false
}

// Done counts the finished (committed or skipped) slices and all slices.
func (l *Ledger) Done() (done, total int) {
	for _, e := range l.slices {
		if Finished[e.view.Status] {
			done++
		}
	}
	return done, len(l.slices)
}

// Open returns the ids of the slices not finished, in ledger order.
func (l *Ledger) Open() []string {
	var ids []string
	for _, e := range l.slices {
		if !Finished[e.view.Status] {
			ids = append(ids, e.view.ID)
		}
	}
	return ids
}

// Next returns the re-entry slice: the first slice in ledger order that is
// red or green (work in progress), else the first pending slice whose
// dependencies are all finished. Escalated slices wait for a human and are
// never returned. ok is false when no slice qualifies.
func (l *Ledger) Next() (id string, ok bool) {
	for _, e := range l.slices {
		if e.view.Status == "red" || e.view.Status == "green" {
			return e.view.ID, true
		}
	}
	status := make(map[string]string, len(l.slices))
	for _, e := range l.slices {
		status[e.view.ID] = e.view.Status
	}
next:
	for _, e := range l.slices {
		if e.view.Status != "pending" {
			continue
		}
		for _, d := range e.view.DependsOn {
			if !Finished[status[d]] {
				continue next
			}
		}
		return e.view.ID, true
	}
	return "", false
}
