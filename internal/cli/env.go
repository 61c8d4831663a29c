package cli

import (
	"io"
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/selection"
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
	return input.RefuseSecrets("$ORC_ACTOR", []byte(a))
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

// where is what selection reads of this run: the verb's --session, the
// environment, the state dir and the worktree's binding.
func (e *Env) where() selection.Where {
	return selection.Where{Flag: e.sessionFlag, Getenv: e.getenv, Dir: e.Dir, Binding: e.worktreeBinding}
}

// Session reads the registry (no lock) and returns the session for the
// explicit key (a --branch value or a positional key), the verb's
// --session, or the current branch's (selection.Where.Session).
func (e *Env) Session(explicit string) (*state.Dir, *registry.Registry, *registry.Session, error) {
	return e.where().Session(explicit)
}

// Mutate runs fn on the session for the explicit key (or the current
// branch) inside one transaction, saving the entry when fn changed it
// (selection.Change).
func (e *Env) Mutate(explicit string, args any, fn func(tx *state.Tx, s *registry.Session) error) error {
	return e.onSession(explicit, selection.Change(args, fn))
}

// Update runs fn in a transaction with this verb's options.
func (e *Env) Update(fn func(tx *state.Tx) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	return e.update(d, state.Options{}, fn)
}

// update runs fn in a transaction on d with this verb's options.
func (e *Env) update(d *state.Dir, opts state.Options, fn func(tx *state.Tx) error) error {
	opts, err := e.txOptions(opts)
	if err != nil {
		return err
	}
	return d.Update(ctxBackground(), opts, func(tx *state.Tx) error { return e.printing(tx, func() error { return fn(tx) }) })
}

// txOptions are opts with what every transaction of this verb carries:
// the verb and the actor it journals, the lock timeout, the streams. An
// actor the journal could not keep is refused first.
func (e *Env) txOptions(opts state.Options) (state.Options, error) {
	if err := e.checkActor(); err != nil {
		return opts, err // every journal line names its actor
	}
	opts.Verb, opts.Actor, opts.LockTimeout = e.Verb, e.Actor(), e.G.LockTimeout
	opts.Stdout, opts.Stderr = e.Stdout, e.Stderr
	return opts, nil
}

// printing runs fn, which may run twice (see state.Dir.Update), with
// e.Stdout and e.Stderr the transaction's: whatever fn prints is printed
// once, after it committed.
func (e *Env) printing(tx *state.Tx, fn func() error) error {
	defer func(out, errw io.Writer) { e.Stdout, e.Stderr = out, errw }(e.Stdout, e.Stderr)
	e.Stdout, e.Stderr = tx.Stdout(), tx.Stderr()
	return fn()
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

// onChoice runs fn in a transaction on the chosen session
// (selection.Where.On). Only the entries the choice can match are read:
// tx.Reg may be partial.
func (e *Env) onChoice(c choice, fn func(tx *state.Tx, s *registry.Session) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	opts, err := e.txOptions(state.Options{})
	if err != nil {
		return err
	}
	return e.where().On(d, c, opts, func(tx *state.Tx, s *registry.Session) error {
		return e.printing(tx, func() error { return fn(tx, s) })
	})
}
