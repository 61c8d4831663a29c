package selection

// The transaction entry points: a change to the chosen session is asked
// for here, and state.Dir.Update runs it (lock, re-read, validate,
// prepare, record, apply, journal).

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// On runs fn in one transaction on d (opts: the verb, actor, lock timeout
// and streams) on the session c selects, judged on the registry as
// re-read under the lock. Only the entries the choice can match are read:
// tx.Reg may be partial. fn may run twice (see state.Dir.Update): what it
// prints goes to tx.Stdout and tx.Stderr, printed once after the commit.
// A session that is not there is Find's refusal with missing's next step.
func (w Where) On(d *state.Dir, c Choice, opts state.Options, fn func(tx *state.Tx, s *registry.Session) error) error {
	opts.Keys = c.Keys()
	return d.Update(context.Background(), opts, func(tx *state.Tx) error {
		s, err := c.Find(tx.Reg)
		if err != nil {
			return w.missing(c, err)
		}
		return fn(tx, s)
	})
}

// Change makes fn, which changes a session's entry in place, a function
// for On that saves the change: when the entry changed (or fn staged a
// file), Save validates it, bumps updatedAt, regenerates the checkpoint
// mirror and journals args. A change that leaves the entry as it was
// writes nothing (repeated mutations converge).
func Change(args any, fn func(tx *state.Tx, s *registry.Session) error) func(tx *state.Tx, s *registry.Session) error {
	return func(tx *state.Tx, s *registry.Session) error {
		before := string(s.Canonical())
		tx.NoteOriginal(s)
		if err := fn(tx, s); err != nil {
			return err
		}
		if string(s.Canonical()) == before && !tx.Staged() {
			return nil
		}
		return Save(tx, s, args)
	}
}

// Save validates a changed entry, bumps updatedAt, regenerates its mirror
// and journals the change with args (refused when they hold a
// credential: the journal would keep it forever).
func Save(tx *state.Tx, s *registry.Session, args any) error {
	if err := RefuseSecretArgs(args); err != nil {
		return err
	}
	s.UpdatedAt = tx.Dir().Now()
	if err := s.Validate(); err != nil {
		return fault.Usagef("%v", err)
	}
	if err := tx.Mirror(s); err != nil {
		return err
	}
	tx.RegistryChanged()
	tx.Touch(s.SessionID, args)
	return nil
}

// RefuseSecretArgs refuses journal arguments that hold a credential,
// naming the argument (never its value).
func RefuseSecretArgs(args any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return input.RefuseSecrets("an argument", raw)
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := input.RefuseSecrets(fmt.Sprintf("argument %q", name), members[name]); err != nil {
			return err
		}
	}
	return nil
}
