package cli

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// archived runs a verb that removes or replaces a session's content,
// keeping that content first (docs/protocol.md §21). collect reads, without
// the lock, what the verb would remove, as archive items, and the store
// keeps them (in a repository: git objects and refs, written before the
// lock, never under it). Then apply runs in one transaction: for each
// content it removes it calls store.Keep with what it removes as read
// under the lock, which names the archive made before (the same content)
// or, when another writer changed it meanwhile or there is no git, stages
// the content in the transaction as a folder archive. Refs the
// transaction did not use, and all of them when it wrote nothing or failed
// before its commit point, are dropped again. Credential-shaped content is
// never archived: the verb is refused (exit 2) before anything is kept.
//
// keys, when set, open the transaction on those entries only (a verb on
// one session: see state.Options.Keys).
func (e *Env) archived(keys []string, collect func(d *state.Dir) ([]*archive.Item, error), apply func(tx *state.Tx, store *archive.Store, items []*archive.Item) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	if err := e.checkActor(); err != nil {
		return err
	}
	store := archive.Open(d)
	items, err := collect(d)
	if err != nil {
		return err
	}
	if err := refuseArchivingCredentials(items); err != nil {
		return err
	}
	if err := store.Prepare(items); err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot archive what this would remove; nothing was written").
			WithHint("run git status to see why git cannot write, then run this again")
	}
	err = e.update(d, state.Options{Keys: keys}, func(tx *state.Tx) error {
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

// keepCurrent is store.Keep for content read under the lock that may have
// no item made before it (it appeared, or changed, since): it refuses
// credential-shaped content like the items, and names the archive.
func keepCurrent(tx *state.Tx, store *archive.Store, it *archive.Item, id, kind, verb, actor string, current archive.Snapshot) (string, error) {
	if it == nil || !current.Equal(it.Snap) { // not checked before the lock
		if it == nil {
			it = archive.NewItem(id, kind, verb, actor, tx.Dir().Now(), current)
		}
		if err := refuseArchivingCredentials([]*archive.Item{{Meta: it.Meta, Snap: current}}); err != nil {
			return "", err
		}
	}
	return store.Keep(tx, it, current), nil
}

// refuseArchivingCredentials refuses items holding credential-shaped text.
func refuseArchivingCredentials(items []*archive.Item) error {
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

// restoreHint is what a hint says about an archive kept by a removal.
func restoreHint(id string) string { return verify.RestoreHint(id) }

// replaceDigest writes text as the session's Resume digest, keeping the
// digest it replaces in an archive first (digest write, digest restore).
// args are journaled, with the archive's name when one was made.
func (e *Env) replaceDigest(explicit string, text []byte, args map[string]string) error {
	ch, err := e.choose(explicit)
	if err != nil {
		return err
	}
	// replaced is the digest a body holds that text would replace, "" when
	// there is nothing to keep: no digest, the one init writes, or text.
	replaced := func(body []byte) string {
		old, _ := checkpoint.Section(body, checkpoint.DigestHeading)
		next, _ := checkpoint.Section(checkpoint.SetSection(body, checkpoint.DigestHeading, text), checkpoint.DigestHeading)
		def, _ := checkpoint.Section(checkpoint.DefaultBody(), checkpoint.DigestHeading)
		if len(old) == 0 || string(old) == string(next) || string(old) == string(def) {
			return ""
		}
		return string(old)
	}
	return e.archived(ch.Keys(), func(d *state.Dir) ([]*archive.Item, error) {
		s, cp, err := chosenFile(d, ch, state.CheckpointFile)
		if err != nil || cp == nil || replaced(checkpoint.Parse(cp).Body) == "" {
			return nil, err
		}
		it := archive.NewItem(s.SessionID, archive.KindDigest, e.Verb, e.Actor(), e.stamp(),
			archive.FileSnapshot(s, state.CheckpointFile, cp))
		it.InFolder = true // made on every digest write: no git process for it
		return []*archive.Item{it}, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		s, err := ch.Find(tx.Reg)
		if err != nil {
			return err
		}
		tx.NoteOriginal(s)
		body, err := tx.Body(s.SessionID)
		if err != nil {
			return err
		}
		newBody := checkpoint.SetSection(body, checkpoint.DigestHeading, text)
		if string(newBody) == string(body) {
			return nil
		}
		if old := replaced(body); old != "" {
			cp, err := tx.Read(s.SessionID, state.CheckpointFile)
			if err != nil {
				return err
			}
			var it *archive.Item
			current := archive.FileSnapshot(s, state.CheckpointFile, cp)
			if len(items) > 0 {
				it = items[0]
				if archive.DigestOf(it.Snap["files/"+state.CheckpointFile]) == old {
					current = it.Snap // the digest archived: the rest of the file may have moved on
				}
			}
			name, err := keepCurrent(tx, store, it, s.SessionID, archive.KindDigest, e.Verb, e.Actor(), current)
			if err != nil {
				return err
			}
			args["archive"] = name
		}
		if err := tx.WriteCheckpoint(s, newBody); err != nil {
			return err
		}
		return Save(tx, s, args)
	})
}

// replaceLedger installs data as the session's ledger, keeping the ledger
// it replaces in an archive first (slice init, slice restore). refuse, run
// on the ledger replaced (lock-free, then again under the lock), may
// refuse the replacement; args are journaled, with the archive's name when
// one was made.
func (e *Env) replaceLedger(explicit string, data []byte, refuse func(old []byte) error, args map[string]any) error {
	ch, err := e.choose(explicit)
	if err != nil {
		return err
	}
	return e.archived(ch.Keys(), func(d *state.Dir) ([]*archive.Item, error) {
		s, old, err := chosenFile(d, ch, state.LedgerFile)
		if err != nil || old == nil || string(old) == string(data) {
			return nil, err
		}
		if err := refuse(old); err != nil {
			return nil, err
		}
		return []*archive.Item{archive.NewItem(s.SessionID, archive.KindLedger, e.Verb, e.Actor(), e.stamp(),
			archive.FileSnapshot(s, state.LedgerFile, old))}, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		s, err := ch.Find(tx.Reg)
		if err != nil {
			return err
		}
		old, err := tx.Read(s.SessionID, state.LedgerFile)
		if err != nil {
			return err
		}
		if string(old) == string(data) {
			return nil // the same ledger again: nothing to do
		}
		if old != nil {
			if err := refuse(old); err != nil {
				return err
			}
		}
		if old != nil {
			var it *archive.Item
			current := archive.FileSnapshot(s, state.LedgerFile, old)
			if len(items) > 0 {
				it = items[0]
				if string(it.Snap["files/"+state.LedgerFile]) == string(old) {
					current = it.Snap // the ledger archived (its entry may have moved on)
				}
			}
			name, err := keepCurrent(tx, store, it, s.SessionID, archive.KindLedger, e.Verb, e.Actor(), current)
			if err != nil {
				return err
			}
			args["archive"] = name
		}
		tx.Write(s.SessionID, state.LedgerFile, data)
		if err := refuseSecretArgs(args); err != nil {
			return err
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}

// chosenFile reads, before the lock, the chosen session's entry and one
// of its files (nil when it has none).
func chosenFile(d *state.Dir, ch choice, name string) (*registry.Session, []byte, error) {
	reg, _, err := d.ReadRegistryFor(ch.Keys()...)
	if err != nil {
		return nil, nil, err
	}
	s, err := ch.Find(reg)
	if err != nil {
		return nil, nil, err
	}
	data, err := d.ReadFile(s.SessionID, name)
	return s, data, err
}

// archiveBindings adds to each session's archive snapshot the bindings to
// it (archive.BindingsFile: a worktrees.json holding only those), so that
// session restore can bring them back; nothing when it has none.
func archiveBindings(d *state.Dir, snaps map[string]archive.Snapshot) error {
	if len(snaps) == 0 {
		return nil
	}
	f, err := readBindings(d)
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
