package removal

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// replacedDigest is the digest a checkpoint body holds that text would
// replace, "" when there is nothing to keep: no digest, the one init
// writes, or text itself.
func replacedDigest(body, text []byte) string {
	old, _ := checkpoint.Section(body, checkpoint.DigestHeading)
	next, _ := checkpoint.Section(checkpoint.SetSection(body, checkpoint.DigestHeading, text), checkpoint.DigestHeading)
	def, _ := checkpoint.Section(checkpoint.DefaultBody(), checkpoint.DigestHeading)
	if len(old) == 0 || string(old) == string(next) || string(old) == string(def) {
		return ""
	}
	return string(old)
}

// ReplaceDigest writes text as the chosen session's Resume digest, keeping
// the digest it replaces in an archive first (digest write, digest
// restore). args are journaled, with the archive's name when one was made.
//
// A replaced digest is always a folder archive, written by the
// transaction itself (no git process on a verb run this often), so
// nothing is read or kept before the lock: the checkpoint replaced is
// read once, under it, and checked for credentials there.
func (r Run) ReplaceDigest(ch selection.Choice, text []byte, args map[string]string) error {
	return r.Keep(ch.Keys(), func(*state.Dir) ([]*archive.Item, error) {
		return nil, nil
	}, func(tx *state.Tx, store *archive.Store, _ []*archive.Item) error {
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
		if old := replacedDigest(body, text); old != "" {
			cp, err := tx.Read(s.SessionID, state.CheckpointFile)
			if err != nil {
				return err
			}
			it := r.item(s.SessionID, archive.KindDigest, archive.FileSnapshot(s, state.CheckpointFile, cp))
			it.InFolder = true
			if err := refuseCredentials([]*archive.Item{it}); err != nil {
				return err
			}
			args["archive"] = store.Keep(tx, it, it.Snap)
		}
		if err := tx.WriteCheckpoint(s, newBody); err != nil {
			return err
		}
		return selection.Save(tx, s, args)
	})
}

// ReplaceLedger installs data as the chosen session's ledger, keeping the
// ledger it replaces in an archive first (slice init, slice restore).
// refuse, run on the ledger replaced (lock-free, then again under the
// lock), may refuse the replacement; args are journaled, with the
// archive's name when one was made.
func (r Run) ReplaceLedger(ch selection.Choice, data []byte, refuse func(old []byte) error, args map[string]any) error {
	return r.Keep(ch.Keys(), func(d *state.Dir) ([]*archive.Item, error) {
		s, old, err := chosenFile(d, ch, state.LedgerFile)
		if err != nil || old == nil || string(old) == string(data) {
			return nil, err
		}
		if err := refuse(old); err != nil {
			return nil, err
		}
		return []*archive.Item{r.item(s.SessionID, archive.KindLedger, archive.FileSnapshot(s, state.LedgerFile, old))}, nil
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
			var it *archive.Item
			current := archive.FileSnapshot(s, state.LedgerFile, old)
			if len(items) > 0 {
				it = items[0]
				if string(it.Snap["files/"+state.LedgerFile]) == string(old) {
					current = it.Snap // the ledger archived (its entry may have moved on)
				}
			}
			name, err := r.keep(tx, store, it, s.SessionID, archive.KindLedger, current)
			if err != nil {
				return err
			}
			args["archive"] = name
		}
		tx.Write(s.SessionID, state.LedgerFile, data)
		if err := selection.RefuseSecretArgs(args); err != nil {
			return err
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}

// chosenFile reads, before the lock, the chosen session's entry and one
// of its files (nil when it has none).
func chosenFile(d *state.Dir, ch selection.Choice, name string) (*registry.Session, []byte, error) {
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
