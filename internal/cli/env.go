package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Env is what every verb's Run receives: the streams, the global flags and
// the resolved state dir.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	G              *Globals
	Verb           string
	actor          string // set by hooks: hook:<event>
	dir            *state.Dir
}

// Dir resolves the state dir once.
func (e *Env) Dir() (*state.Dir, error) {
	if e.dir == nil {
		d, err := state.Resolve(e.G.Dir, cwd())
		if err != nil {
			return nil, err
		}
		e.dir = d
	}
	return e.dir, nil
}

// Actor is who the journal says made a change: $ORC_ACTOR, else
// hook:<event> inside a hook, else cli.
func (e *Env) Actor() string {
	if a := os.Getenv("ORC_ACTOR"); a != "" {
		return a
	}
	if e.actor != "" {
		return e.actor
	}
	return "cli"
}

// Branch returns the branch a verb acts on: the explicit one, else the
// current branch of the repository.
func (e *Env) Branch(explicit string) (string, error) {
	if explicit != "" {
		if err := registry.CheckKey(registry.Sanitize(explicit)); err != nil {
			return "", fault.Usagef("%v", err).WithHint("use another branch name, or pass --branch")
		}
		return explicit, nil
	}
	d, err := e.Dir()
	if err != nil {
		return "", err
	}
	if d.Git == nil {
		return "", fault.NotFoundf("no branch given and not inside a git repository").WithHint("pass --branch B")
	}
	b, detached, err := d.Git.CurrentBranch()
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read HEAD")
	}
	if detached || b == "" {
		return "", fault.NotFoundf("no branch given and HEAD is detached").WithHint("pass --branch B, or check out a branch")
	}
	return b, nil
}

// lookup finds the session for key (raw branch or sessionId).
func lookup(reg *registry.Registry, key string) *registry.Session {
	if s := reg.Find(key); s != nil {
		return s
	}
	return reg.Find(registry.Sanitize(key))
}

// lookupKeys are the sessionIds and gitBranches lookup may match for key:
// a registry read for them alone answers lookup as the whole one would.
func lookupKeys(key string) []string {
	keys := []string{key}
	for _, k := range registry.Keys(key) {
		if k != key {
			keys = append(keys, k)
		}
	}
	return keys
}

// notFound is the exit-1 error for a missing session.
func notFound(key string) error {
	return fault.NotFoundf("no session for %q", key).WithHint("run orc-state sessions to list them, or orc-state init to register one")
}

// readRegistry resolves the state dir and reads the registry (no lock).
func (e *Env) readRegistry() (*state.Dir, *registry.Registry, error) {
	d, err := e.Dir()
	if err != nil {
		return nil, nil, err
	}
	reg, _, err := d.ReadRegistry()
	return d, reg, err
}

// Session reads the registry (no lock) and returns the session for the
// explicit key, or the current branch's.
func (e *Env) Session(explicit string) (*state.Dir, *registry.Registry, *registry.Session, error) {
	key, err := e.Branch(explicit)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := e.Dir()
	if err != nil {
		return nil, nil, nil, err
	}
	reg, _, err := d.ReadRegistryFor(lookupKeys(key)...) // only the candidates, when proven
	if err != nil {
		return nil, nil, nil, err
	}
	s := lookup(reg, key)
	if s == nil {
		return nil, nil, nil, notFound(key)
	}
	return d, reg, s, nil
}

// Mutate runs fn on the session for the explicit key (or the current
// branch) inside one transaction. fn changes the entry in place; when the
// entry changed, updatedAt is bumped, the checkpoint mirror regenerated and
// the change journaled with args. A change that leaves the entry as it was
// writes nothing (repeated mutations converge).
func (e *Env) Mutate(explicit string, args any, fn func(tx *state.Tx, s *registry.Session) error) error {
	return e.onSession(explicit, func(tx *state.Tx, s *registry.Session) error {
		before := string(s.Canonical())
		tx.NoteOriginal(s)
		if err := fn(tx, s); err != nil {
			return err
		}
		if string(s.Canonical()) == before && !tx.Staged() {
			return nil
		}
		return Save(tx, s, args)
	})
}

// Save validates a changed entry, bumps updatedAt, regenerates its mirror
// and journals the change.
func Save(tx *state.Tx, s *registry.Session, args any) error {
	if raw, err := json.Marshal(args); err == nil {
		if err := refuseSecrets("an argument", raw); err != nil {
			return err // the journal would keep it forever
		}
	}
	s.UpdatedAt = registry.Now()
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

// Update runs fn in a transaction with this verb's options.
func (e *Env) Update(fn func(tx *state.Tx) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	return e.update(d, state.Options{}, fn)
}

// update runs fn in a transaction on d. fn may run twice (see
// state.Dir.Update), so while it runs e.Stdout and e.Stderr are the
// transaction's: whatever fn prints is printed once, after it committed.
func (e *Env) update(d *state.Dir, opts state.Options, fn func(tx *state.Tx) error) error {
	opts.Verb, opts.Actor, opts.LockTimeout = e.Verb, e.Actor(), e.G.LockTimeout
	opts.Stdout, opts.Stderr = e.Stdout, e.Stderr
	return d.Update(ctxBackground(), opts, func(tx *state.Tx) error {
		defer func(out, errw io.Writer) { e.Stdout, e.Stderr = out, errw }(e.Stdout, e.Stderr)
		e.Stdout, e.Stderr = tx.Stdout(), tx.Stderr()
		return fn(tx)
	})
}

// ctxBackground is the context of a verb: orc-state verbs are short and
// bound their waits themselves (lock timeout, git timeouts).
func ctxBackground() context.Context { return context.Background() }

// BranchFlag selects the session a verb acts on.
type BranchFlag struct {
	Branch string `help:"Branch (raw or sanitized) whose session to use; default: the current branch." placeholder:"B"`
}

func printJSON(e *Env, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.Stdout.Write(buf.Bytes())
	return err
}

// onSession runs fn in a transaction on the session for the explicit key
// (or the current branch), without touching the registry entry.
func (e *Env) onSession(explicit string, fn func(tx *state.Tx, s *registry.Session) error) error {
	key, err := e.Branch(explicit)
	if err != nil {
		return err
	}
	d, err := e.Dir()
	if err != nil {
		return err
	}
	// Only the entries lookup can match: tx.Reg may be partial.
	return e.update(d, state.Options{Keys: lookupKeys(key)}, func(tx *state.Tx) error {
		s := lookup(tx.Reg, key)
		if s == nil {
			return notFound(key)
		}
		return fn(tx, s)
	})
}
