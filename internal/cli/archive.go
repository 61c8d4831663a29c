package cli

import (
	"errors"
	"fmt"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// errArchiveChanged is returned from a transaction that found the content
// it would remove changed since it was archived: nothing is written, and
// the archive is made again.
var errArchiveChanged = errors.New("changed since it was archived")

// archiveTries bounds how often a destructive verb archives again because
// another writer changed what it removes meanwhile.
const archiveTries = 3

// archived runs a verb that removes or replaces a session's content,
// keeping that content first (docs/protocol.md §21). collect reads, without
// the lock, what the verb would remove, as archive items; the store keeps
// them (git objects and refs before the lock, never under it); then apply
// runs in one transaction, where it checks with unchanged that each item
// still holds what it removes (else it returns errArchiveChanged) and
// marks the items it used. Items not used, and all of them when the
// transaction writes nothing or fails before its commit point, are
// dropped again. Credential-shaped content is never archived: the verb is
// refused (exit 2) before anything is kept.
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
	for try := 1; ; try++ {
		items, err := collect(d)
		if err != nil {
			return err
		}
		for _, it := range items {
			if where, ok := archive.Credential(it.Snap); ok {
				f := fault.Usagef("%s holds credential-shaped text in %s; it is never archived, so nothing was removed or written", safetext.Escape(it.Meta.Session), where)
				if it.Meta.Kind == archive.KindOrphan {
					return f.WithHint("remove the secret from that file of the folder by hand, then run this again")
				}
				return f.WithHint("orc-state repair --redact --session %s removes it, then run this again", safetext.Quote(it.Meta.Session))
			}
		}
		if err := store.Prepare(items); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot archive what this would remove; nothing was written").
				WithHint("run git status to see why git cannot write, then run this again")
		}
		err = e.update(d, state.Options{Keys: keys}, func(tx *state.Tx) error {
			for _, it := range items {
				it.Used = false // the function may run twice
			}
			store.Name(items)
			if err := apply(tx, store, items); err != nil {
				return err
			}
			var used []*archive.Item
			for _, it := range items {
				if it.Used {
					used = append(used, it)
				}
			}
			store.Stage(tx, used)
			return nil
		})
		if err != nil && fault.Code(err) != fault.Interrupted {
			for _, it := range items {
				it.Used = false
			}
		}
		store.Abandon(items)
		if errors.Is(err, errArchiveChanged) {
			if try < archiveTries {
				continue
			}
			return &fault.Error{Code: fault.Locked, Err: err,
				Msg:  "another writer kept changing what this would remove; nothing was written",
				Hint: "retry when the other writers are done"}
		}
		return err
	}
}

// restoreHint is what a hint says about an archive kept by a removal.
func restoreHint(id string) string {
	return fmt.Sprintf("its entry and files are archived first; orc-state session restore %s brings them back", safetext.Quote(id))
}

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
	return e.archived(ch.keys(), func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistryFor(ch.keys()...)
		if err != nil {
			return nil, err
		}
		s, err := ch.find(reg)
		if err != nil {
			return nil, err
		}
		cp, err := d.ReadFile(s.SessionID, state.CheckpointFile)
		if err != nil || cp == nil || replaced(checkpoint.Parse(cp).Body) == "" {
			return nil, err
		}
		return []*archive.Item{archive.NewItem(s.SessionID, archive.KindDigest, e.Verb, e.Actor(),
			archive.FileSnapshot(s, state.CheckpointFile, cp))}, nil
	}, func(tx *state.Tx, _ *archive.Store, items []*archive.Item) error {
		s, err := ch.find(tx.Reg)
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
		old := replaced(body)
		switch {
		case len(items) == 0 && old != "":
			return errArchiveChanged
		case len(items) > 0 && archive.DigestOf(items[0].Snap["files/"+state.CheckpointFile]) != old:
			return errArchiveChanged
		case len(items) > 0:
			items[0].Used = true
			args["archive"] = items[0].Name
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
	return e.archived(ch.keys(), func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistryFor(ch.keys()...)
		if err != nil {
			return nil, err
		}
		s, err := ch.find(reg)
		if err != nil {
			return nil, err
		}
		old, err := d.ReadFile(s.SessionID, state.LedgerFile)
		if err != nil || old == nil || string(old) == string(data) {
			return nil, err
		}
		if err := refuse(old); err != nil {
			return nil, err
		}
		return []*archive.Item{archive.NewItem(s.SessionID, archive.KindLedger, e.Verb, e.Actor(),
			archive.FileSnapshot(s, state.LedgerFile, old))}, nil
	}, func(tx *state.Tx, _ *archive.Store, items []*archive.Item) error {
		s, err := ch.find(tx.Reg)
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
		switch {
		case len(items) == 0 && old != nil:
			return errArchiveChanged
		case len(items) > 0 && string(items[0].Snap["files/"+state.LedgerFile]) != string(old):
			return errArchiveChanged
		case len(items) > 0:
			items[0].Used = true
			args["archive"] = items[0].Name
		}
		tx.Write(s.SessionID, state.LedgerFile, data)
		if err := refuseSecretArgs(args); err != nil {
			return err
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}
