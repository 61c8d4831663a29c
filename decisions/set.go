package decisions

import "fmt"

// SetResult says what Set did.
type SetResult int

// Set outcomes.
const (
	Created    SetResult = iota + 1 // the key was not settled
	Unchanged                       // already settled to this value: nothing changed
	Superseded                      // a different value was replaced; the old one is in history
)

func (r SetResult) String() string {
	switch r {
	case Created:
		return "created"
	case Unchanged:
		return "unchanged"
	case Superseded:
		return "superseded"
	}
	return fmt.Sprintf("SetResult(%d)", int(r))
}

// Set settles key to value, compare-and-set: an unsettled key is created;
// the same value again is Unchanged, whatever the provenance (the value is
// the decision; re-asserting it changes nothing, so retries converge); a
// different value is refused with *SettledError unless supersede, which
// moves the old value into history with supersededAt now. now is the
// caller's clock in TimeLayout. Bad input is an *InputError; on any error
// the file is unchanged.
func (f *File) Set(key, value, provenance string, supersede bool, now string) (SetResult, error) {
	for _, err := range []error{CheckKey(key), CheckValue(value), CheckSetting(key, value), CheckProvenance(provenance), checkTime("time", now)} {
		if err != nil {
			return 0, &InputError{Fault: err.Error()}
		}
	}
	if f.Decisions == nil {
		f.Decisions = map[string]Decision{}
	}
	f.Schema = Schema
	old, ok := f.Decisions[key]
	d := Decision{Value: value, Provenance: provenance, SettledAt: now}
	switch {
	case !ok:
		f.Decisions[key] = d
		return Created, nil
	case old.Value == value:
		return Unchanged, nil
	case !supersede:
		return 0, &SettledError{Key: key, Value: old.Value, Provenance: old.Provenance}
	}
	d.History = append(append([]HistoryEntry(nil), old.History...), HistoryEntry{
		Value: old.Value, Provenance: old.Provenance, SettledAt: old.SettledAt, SupersededAt: now,
	})
	f.Decisions[key] = d
	return Superseded, nil
}
