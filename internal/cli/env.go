package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// Env is what every verb's Run receives: the streams, the global flags,
// the run's world (its Process) and the resolved state dir.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	G              *Globals
	Verb           string
	proc           *Process
	wd             string // the working directory; a hook moves to its payload's cwd
	actor          string // set by hooks: hook:<event>
	sessionFlag    string // the verb's --session (BranchFlag), "" when not given
	dir            *state.Dir
	// The worktree's binding, read once (worktreeBinding).
	bindingRead bool
	bound       *binding.Binding
	boundErr    error
}

// newEnv is the Env of verb in the run p, writing to stdout and stderr.
func newEnv(p *Process, stdout, stderr io.Writer, g *Globals, verb string) *Env {
	return &Env{Stdin: p.Stdin, Stdout: stdout, Stderr: stderr, G: g, Verb: verb, proc: p, wd: p.Dir}
}

// getenv returns a variable of the run's environment.
func (e *Env) getenv(key string) string { return e.proc.getenv(key) }

// now is the time claims are judged by.
func (e *Env) now() time.Time { return e.proc.Now() }

// stamp is the run's recorded time now, as timestamps are written.
func (e *Env) stamp() string { return registry.Stamp(e.proc.Stamp()) }

// abs makes a path the user gave absolute against the run's working
// directory, and clean, as filepath.Abs does against the process's.
func (e *Env) abs(path string) string {
	switch {
	case path == "":
		return ""
	case filepath.IsAbs(path):
		return filepath.Clean(path)
	}
	return filepath.Join(e.wd, path)
}

// Dir resolves the state dir once.
func (e *Env) Dir() (*state.Dir, error) {
	if e.dir == nil {
		d, err := state.Resolve(e.G.Dir, e.wd, e.proc.Environ)
		if err != nil {
			return nil, err
		}
		d.Clock = e.proc.Stamp
		e.dir = d
	}
	return e.dir, nil
}

// Actor is who the journal says made a change: $ORC_ACTOR, else
// hook:<event> inside a hook, else cli.
func (e *Env) Actor() string {
	if a := e.getenv("ORC_ACTOR"); a != "" {
		return a
	}
	if e.actor != "" {
		return e.actor
	}
	return "cli"
}

// checkActor refuses an actor the journal, the transaction record or the
// sync log could not keep as it is: $ORC_ACTOR must be one line
// (docs/protocol.md §4, the rule slice claim's --agent obeys) and hold no
// credential. The others (cli, hook:<event>) are constants.
func (e *Env) checkActor() error {
	a := e.Actor()
	if err := textin.SingleLine("$ORC_ACTOR", a); err != nil {
		return fault.Usagef("%v", err).WithHint("set ORC_ACTOR to one line naming the agent, or unset it")
	}
	return refuseSecrets("$ORC_ACTOR", []byte(a))
}

// headBranch is the repository's current branch, for a verb given no
// session: exit 1 outside a repository or on a detached HEAD.
func (e *Env) headBranch() (string, error) {
	d, err := e.Dir()
	if err != nil {
		return "", err
	}
	if d.Git == nil {
		return "", fault.NotFoundf("no branch given and not inside a git repository").WithHint("pass --branch B or --session S")
	}
	b, detached, err := d.Git.CurrentBranch()
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read HEAD")
	}
	if detached || b == "" {
		return "", fault.NotFoundf("no branch given and HEAD is detached").WithHint("pass --branch B or --session S, or check out a branch")
	}
	return b, nil
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
// explicit key (a --branch value or a positional key), the verb's
// --session, or the current branch's.
func (e *Env) Session(explicit string) (*state.Dir, *registry.Registry, *registry.Session, error) {
	c, err := e.choose(explicit)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := e.Dir()
	if err != nil {
		return nil, nil, nil, err
	}
	reg, _, err := d.ReadRegistryFor(c.keys()...) // only the candidates, when proven
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := c.find(reg)
	if err != nil {
		return nil, nil, nil, e.missingSuggested(c, err)
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
	if err := refuseSecretArgs(args); err != nil {
		return err // the journal would keep it forever
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
	if err := e.checkActor(); err != nil {
		return err // every journal line names its actor
	}
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

// refuseSecretArgs refuses journal arguments that hold a credential,
// naming the argument (never its value).
func refuseSecretArgs(args any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return refuseSecrets("an argument", raw)
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := refuseSecrets(fmt.Sprintf("argument %q", name), members[name]); err != nil {
			return err
		}
	}
	return nil
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

// missing is find's error for choice c: when the current branch has no
// session in a linked worktree that no binding names, its hint says to
// join a live session (never to register a second ledger).
func (e *Env) missing(c choice, err error) error {
	if !c.head {
		return err
	}
	return e.withJoinHint(err)
}

// onSession runs fn in a transaction on the session for the explicit key
// (or the current branch), without touching the registry entry.
func (e *Env) onSession(explicit string, fn func(tx *state.Tx, s *registry.Session) error) error {
	c, err := e.choose(explicit)
	if err != nil {
		return err
	}
	return e.onChoice(c, fn)
}

// onChoice runs fn in a transaction on the chosen session. Only the
// entries the choice can match are read: tx.Reg may be partial.
func (e *Env) onChoice(c choice, fn func(tx *state.Tx, s *registry.Session) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	return e.update(d, state.Options{Keys: c.keys()}, func(tx *state.Tx) error {
		s, err := c.find(tx.Reg)
		if err != nil {
			return e.missingSuggested(c, err)
		}
		return fn(tx, s)
	})
}
