// Package removal owns what the verbs that remove, replace or restore a
// session's content do (docs/protocol.md §21): session remove, cleanup and
// its archive sweep, session restore, and the replacement of a digest or a
// ledger. Each keeps what it removes in an archive first (Keep: the
// archive is written before the lock, used or written again inside the one
// transaction, dropped when unused), decides under the lock what it
// removes or brings back (a session gone live meanwhile is kept; a
// restore that would clash with a live key, branch, folder or binding is
// refused), and returns what happened as plain values for the CLI to
// print. Storage, names and validation of the archives are
// internal/archive's; nothing here writes to stdout.
package removal

import (
	"time"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
)

// Run is what a removing verb reads of the run that makes it. Each
// function is asked only when needed, so the first rule that fails is the
// error, as it was when the CLI did this work itself.
type Run struct {
	Verb, Actor string
	Stamp       func() string    // the run's recorded time, as timestamps are written
	Now         func() time.Time // what cleanup's --older-than counts back from
	Environ     environ.List     // the run's environment (git discovery of a bound worktree)
	Where       selection.Where  // the state dir and how a key names a session
	// CheckActor refuses an actor the journal could not keep.
	CheckActor func() error
	// Update runs fn in one transaction on d with the verb's options.
	Update func(d *state.Dir, opts state.Options, fn func(tx *state.Tx) error) error
}

// Keep runs a verb that removes or replaces a session's content, keeping
// that content first. collect reads, without the lock, what the verb
// would remove, as archive items, and the store keeps them (in a
// repository: git objects and refs, written before the lock, never under
// it). Then apply runs in one transaction: for each content it removes it
// calls store.Keep with what it removes as read under the lock (KeepCurrent),
// which names the archive made before (the same content) or, when another
// writer changed it meanwhile or there is no git, stages the content in
// the transaction as a folder archive. Refs the transaction did not use,
// and all of them when it wrote nothing or failed before its commit point,
// are dropped again. Credential-shaped content is never archived: the
// verb is refused (exit 2) before anything is kept.
//
// keys, when set, open the transaction on those entries only (a verb on
// one session: see state.Options.Keys).
func (r Run) Keep(keys []string, collect func(d *state.Dir) ([]*archive.Item, error), apply func(tx *state.Tx, store *archive.Store, items []*archive.Item) error) error {
	d, err := r.Where.Dir()
	if err != nil {
		return err
	}
	if err := r.CheckActor(); err != nil {
		return err
	}
	store := archive.Open(d)
	items, err := collect(d)
	if err != nil {
		return err
	}
	if err := refuseCredentials(items); err != nil {
		return err
	}
	if err := store.Prepare(items); err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot archive what this would remove; nothing was written").
			WithHint("run git status to see why git cannot write, then run this again")
	}
	err = r.Update(d, state.Options{Keys: keys}, func(tx *state.Tx) error {
		for _, it := range items {
			it.Used = false // the function may run twice
		}
		store.Begin()
		return apply(tx, store, items)
	})
	if err != nil && fault.Code(err) != fault.Interrupted {
		for _, it := range items {
			it.Used = false
		}
	}
	store.Abandon(items)
	return err
}

// KeepCurrent is store.Keep for content read under the lock that may have
// no item made before it (it appeared, or changed, since): it refuses
// credential-shaped content like the items, and names the archive.
func KeepCurrent(tx *state.Tx, store *archive.Store, it *archive.Item, id, kind, verb, actor string, current archive.Snapshot) (string, error) {
	if it == nil || !current.Equal(it.Snap) { // not checked before the lock
		if it == nil {
			it = archive.NewItem(id, kind, verb, actor, tx.Dir().Now(), current)
		}
		if err := refuseCredentials([]*archive.Item{{Meta: it.Meta, Snap: current}}); err != nil {
			return "", err
		}
	}
	return store.Keep(tx, it, current), nil
}

// refuseCredentials refuses items holding credential-shaped text.
func refuseCredentials(items []*archive.Item) error {
	for _, it := range items {
		if where, ok := archive.Credential(it.Snap); ok {
			f := fault.Usagef("%s holds credential-shaped text in %s; it is never archived, so nothing was removed or written", safetext.Escape(it.Meta.Session), where)
			if it.Meta.Kind == archive.KindOrphan {
				return f.WithHint("remove the secret from that file of the folder by hand, then run this again")
			}
			return f.WithHint("orc-state repair --redact --session=%s removes it, then run this again", safetext.Quote(it.Meta.Session))
		}
	}
	return nil
}

// item is a new archive item of this run.
func (r Run) item(id, kind string, snap archive.Snapshot) *archive.Item {
	return archive.NewItem(id, kind, r.Verb, r.Actor, r.Stamp(), snap)
}

// keep is KeepCurrent by this run.
func (r Run) keep(tx *state.Tx, store *archive.Store, it *archive.Item, id, kind string, current archive.Snapshot) (string, error) {
	return KeepCurrent(tx, store, it, id, kind, r.Verb, r.Actor, current)
}

// tombstone is a line of removed.jsonl, by this run.
func (r Run) tombstone(fields map[string]any) []byte {
	return repair.Run{Verb: r.Verb, Actor: r.Actor, Stamp: r.Stamp()}.Tombstone(fields)
}

// restoreHint is what a hint says about an archive kept by a removal.
func restoreHint(id string) string { return verify.RestoreHint(id) }

// archiveBindings adds to each session's archive snapshot the bindings to
// it (archive.BindingsFile: a worktrees.json holding only those), so that
// session restore can bring them back; nothing when it has none.
func archiveBindings(d *state.Dir, snaps map[string]archive.Snapshot) error {
	if len(snaps) == 0 {
		return nil
	}
	f, err := selection.ReadBindings(d)
	if err != nil {
		return err
	}
	for id, snap := range snaps {
		if snap == nil {
			continue
		}
		if of := f.Of(id); len(of) > 0 {
			snap[archive.BindingsFile] = (&binding.File{Schema: binding.Schema, Worktrees: of}).Marshal()
		}
	}
	return nil
}

// unbind drops the bindings of sessions that a transaction removes
// (session remove, cleanup); the worktrees themselves stay.
func unbind(tx *state.Tx, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	data, err := tx.Dir().ReadStateFile(binding.FileName)
	if err != nil || data == nil {
		return err
	}
	f, err := binding.Parse(data)
	if err != nil {
		return err
	}
	if len(f.RemoveSessions(ids...)) > 0 {
		tx.WriteState(binding.FileName, f.Marshal())
	}
	return nil
}
