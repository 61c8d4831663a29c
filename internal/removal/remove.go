package removal

import (
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Removed is what a session remove did: the session and the archive that
// keeps it, as the transaction that committed left them ("" when nothing
// was removed).
type Removed struct {
	Session, Archive string
}

// Remove removes the chosen session (session remove): its entry, folder
// and bindings, with a tombstone, after keeping its entry, files and
// bindings in an archive. An in_progress or paused session is refused
// without force, before the lock and again under it.
func (r Run) Remove(ch selection.Choice, force bool) (Removed, error) {
	var done Removed
	err := r.Keep(nil, func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return nil, err
		}
		s, err := ch.Find(reg)
		if err != nil {
			return nil, err
		}
		if err := refuseLive(s, force); err != nil {
			return nil, err
		}
		snap, err := archive.ReadSession(d, reg, s.SessionID)
		if err == nil {
			err = archiveBindings(d, map[string]archive.Snapshot{s.SessionID: snap})
		}
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read %s to archive it", s.SessionID).WithHint("run orc-state doctor")
		}
		return []*archive.Item{r.item(s.SessionID, archive.KindSession, snap)}, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		s, err := ch.Find(tx.Reg)
		if err != nil {
			return err
		}
		if err := refuseLive(s, force); err != nil {
			return err
		}
		now, err := archive.ReadSession(tx.Dir(), tx.Reg, s.SessionID)
		if err == nil {
			err = archiveBindings(tx.Dir(), map[string]archive.Snapshot{s.SessionID: now})
		}
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot read %s", s.SessionID).WithHint("run orc-state doctor")
		}
		var it *archive.Item
		if items[0].Meta.Session == s.SessionID {
			it = items[0]
		}
		name, err := r.keep(tx, store, it, s.SessionID, archive.KindSession, now)
		if err != nil {
			return err
		}
		id := s.SessionID // s points into tx.Reg.Sessions, which the removal shifts
		done = Removed{Session: id, Archive: name}
		tx.RemoveSessionArchived(*s, name)
		return unbind(tx, id) // the worktrees stay
	})
	if err != nil {
		return Removed{}, err
	}
	return done, nil
}

// live reports a session a removal protects unless forced.
func live(s *registry.Session) bool { return s.Status == "in_progress" || s.Status == "paused" }

// refuseLive refuses to remove an in_progress or paused session without
// force; the hint finishes it first, never forces.
func refuseLive(s *registry.Session, force bool) error {
	if live(s) && !force {
		return fault.Usagef("session %s is %s; refusing to remove a live session", safetext.Escape(s.SessionID), s.Status).
			WithHint("finish it first (orc-state status set completed --session=%s), then orc-state session remove --session=%s; %s",
				safetext.Quote(s.SessionID), safetext.Quote(s.SessionID), restoreHint(s.SessionID))
	}
	return nil
}
