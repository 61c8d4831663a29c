package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/removal"
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/worktrees"
	"github.com/orc-state/orc-state/registry"
)

// Txn is how a verb changes the state: the transaction entry points
// (Mutate, OnSession and OnChoice on one session, Update and UpdateRaw on
// the state dir, Finish for an interrupted one), each with this verb's
// options (its name and actor in the journal, the lock timeout, the
// streams), and this run as the packages that change state read it
// (Removal, Worktrees, Syncer, Fix). What a verb prints inside a
// transaction shows once, after it committed.
type Txn struct {
	verb        string
	lockTimeout time.Duration
	actor       string // set by hooks: hook:<event> (SetHookActor)
	o           *Streams
	w           *World
	where       *selection.Where
}

// NewTxn is the transaction entry points of verb, whose journal lines and
// records carry its name and actor, waiting at most lockTimeout for the
// lock, printing on o, selecting its session by where.
func NewTxn(verb string, lockTimeout time.Duration, o *Streams, w *World, where *selection.Where) *Txn {
	return &Txn{verb: verb, lockTimeout: lockTimeout, o: o, w: w, where: where}
}

// SetHookActor makes event's hook the actor of what this run journals
// (hook:<event>), unless $ORC_ACTOR names one.
func (t *Txn) SetHookActor(event string) { t.actor = "hook:" + event }

// Where is the selection of this run's session.
func (t *Txn) Where() *selection.Where { return t.where }

// Actor is who the journal says made a change: $ORC_ACTOR, else
// hook:<event> inside a hook, else cli.
func (t *Txn) Actor() string {
	if a := t.w.Getenv("ORC_ACTOR"); a != "" {
		return a
	}
	if t.actor != "" {
		return t.actor
	}
	return "cli"
}

// CheckActor refuses an actor the journal, the transaction record or the
// sync log could not keep as it is: $ORC_ACTOR must be one line
// (docs/protocol.md §4, the rule slice claim's --agent obeys) and hold no
// credential. The others (cli, hook:<event>) are constants.
func (t *Txn) CheckActor() error {
	a := t.Actor()
	if err := textin.SingleLine("$ORC_ACTOR", a); err != nil {
		return fault.Usagef("%v", err).WithHint("set ORC_ACTOR to one line naming the agent, or unset it")
	}
	return input.RefuseSecrets("$ORC_ACTOR", []byte(a))
}

// Mutate runs fn on the session for the explicit key (or the current
// branch) inside one transaction, saving the entry when fn changed it
// (selection.Change).
func (t *Txn) Mutate(explicit string, args any, fn func(tx *state.Tx, s *registry.Session) error) error {
	return t.OnSession(explicit, selection.Change(args, fn))
}

// Update runs fn in a transaction with this verb's options.
func (t *Txn) Update(fn func(tx *state.Tx) error) error { return t.updateWith(state.Options{}, fn) }

// UpdateRaw is Update without the strict registry read (migrate, and
// repair --rebuild-registry).
func (t *Txn) UpdateRaw(fn func(tx *state.Tx) error) error {
	return t.updateWith(state.Options{RawRegistry: true}, fn)
}

func (t *Txn) updateWith(opts state.Options, fn func(tx *state.Tx) error) error {
	d, err := t.where.Dir()
	if err != nil {
		return err
	}
	return t.update(d, opts, fn)
}

// update runs fn in a transaction on d with this verb's options.
func (t *Txn) update(d *state.Dir, opts state.Options, fn func(tx *state.Tx) error) error {
	opts, err := t.Options(opts)
	if err != nil {
		return err
	}
	// A verb bounds its waits itself (the lock's and git's timeouts).
	return d.Update(context.Background(), opts, func(tx *state.Tx) error { return t.printing(tx, func() error { return fn(tx) }) })
}

// Options are opts with what every transaction of this verb carries:
// the verb and the actor it journals, the lock timeout, the streams. An
// actor the journal could not keep is refused first.
func (t *Txn) Options(opts state.Options) (state.Options, error) {
	if err := t.CheckActor(); err != nil {
		return opts, err // every journal line names its actor
	}
	opts.Verb, opts.Actor, opts.LockTimeout = t.verb, t.Actor(), t.lockTimeout
	opts.Stdout, opts.Stderr = t.o.Stdout, t.o.Stderr
	return opts, nil
}

// printing runs fn, which may run twice (see state.Dir.Update), with the
// streams' Stdout and Stderr the transaction's: whatever fn prints is
// printed once, after it committed.
func (t *Txn) printing(tx *state.Tx, fn func() error) error {
	defer func(out, errw io.Writer) { t.o.Stdout, t.o.Stderr = out, errw }(t.o.Stdout, t.o.Stderr)
	t.o.Stdout, t.o.Stderr = tx.Stdout(), tx.Stderr()
	return fn()
}

// Finish completes an interrupted transaction, if one is recorded
// (state.Dir.Finish), and returns it; nil when none was.
func (t *Txn) Finish() (*state.Intent, error) {
	d, err := t.where.Dir()
	if err != nil {
		return nil, err
	}
	if err := t.CheckActor(); err != nil {
		return nil, err
	}
	return d.Finish(context.Background(), state.Options{Verb: t.verb, Actor: t.Actor(), LockTimeout: t.lockTimeout})
}

// OnSession runs fn in a transaction on the session for the explicit key
// (or the current branch), without touching the registry entry.
func (t *Txn) OnSession(explicit string, fn func(tx *state.Tx, s *registry.Session) error) error {
	c, err := t.where.Choose(explicit)
	if err != nil {
		return err
	}
	return t.OnChoice(c, fn)
}

// OnChoice runs fn in a transaction on the chosen session
// (selection.Where.On). Only the entries the choice can match are read:
// tx.Reg may be partial.
func (t *Txn) OnChoice(c selection.Choice, fn func(tx *state.Tx, s *registry.Session) error) error {
	d, err := t.where.Dir()
	if err != nil {
		return err
	}
	opts, err := t.Options(state.Options{})
	if err != nil {
		return err
	}
	return t.where.On(d, c, opts, func(tx *state.Tx, s *registry.Session) error {
		return t.printing(tx, func() error { return fn(tx, s) })
	})
}

// Removal is this run as the verbs that remove, replace or restore a
// session's content hand it to internal/removal: who and when, the
// environment, the selection and the transaction with the verb's options.
func (t *Txn) Removal() removal.Run {
	return removal.Run{Verb: t.verb, Actor: t.Actor(), Stamp: t.w.Stamp, Now: t.w.now, Environ: t.w.environ,
		Where: *t.where, CheckActor: t.CheckActor, Update: t.update}
}

// Syncer is this run as the sync verbs' work reads it (refsync.Syncer):
// the state dir, the options its log and its transactions carry, where
// its notes go, the claim clock.
func (t *Txn) Syncer(remote string) (*refsync.Syncer, error) {
	d, err := t.where.Dir()
	if err != nil {
		return nil, err
	}
	if err := t.CheckActor(); err != nil {
		return nil, err // the sync log names its actor
	}
	s, err := refsync.New(d, remote, state.Options{Verb: t.verb, Actor: t.Actor(), LockTimeout: t.lockTimeout})
	if err != nil {
		return nil, err
	}
	s.Notify = func(msg string) { fmt.Fprintf(t.o.Stderr, "orc-state %s: %s\n", t.verb, msg) }
	s.Now = t.w.now
	return s, nil
}

// Fix is what the repair package records of this run.
func (t *Txn) Fix() repair.Run { return repair.Run{Verb: t.verb, Actor: t.Actor(), Stamp: t.w.Stamp()} }

// Worktrees is this run as the worktree verbs' work reads it: where
// selection looks, the transaction's options, the environment, the clock.
func (t *Txn) Worktrees() worktrees.Run {
	return worktrees.Run{Where: *t.where, Environ: t.w.environ, Now: t.w.now,
		Options: func() (state.Options, error) { return t.Options(state.Options{}) }}
}
