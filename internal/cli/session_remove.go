package cli

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (or pass --branch or --session)."`
	Force bool   `help:"Also remove an in_progress or paused session (archived first, like every removal)."`
}

// Run removes one session: entry, folder, tombstone, after keeping its
// entry and files in an archive (session restore brings them back).
func (c *SessionRemoveCmd) Run(e *Env) error {
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	if key == "" && e.sessionFlag == "" {
		return fault.Usagef("name the session to remove").WithHint("orc-state session remove B, or --session S (archived first: orc-state session restore brings it back)")
	}
	ch, err := e.choose(key)
	if err != nil {
		return err
	}
	var kept, removed string // the archive's name and the session, as the transaction that committed left them
	err = e.archived(nil, func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return nil, err
		}
		s, err := ch.Find(reg)
		if err != nil {
			return nil, err
		}
		if err := c.refuseLive(s); err != nil {
			return nil, err
		}
		snap, err := archive.ReadSession(d, reg, s.SessionID)
		if err == nil {
			err = archiveBindings(d, map[string]archive.Snapshot{s.SessionID: snap})
		}
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read %s to archive it", s.SessionID).WithHint("run orc-state doctor")
		}
		return []*archive.Item{archive.NewItem(s.SessionID, archive.KindSession, e.Verb, e.Actor(), e.stamp(), snap)}, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		s, err := ch.Find(tx.Reg)
		if err != nil {
			return err
		}
		if err := c.refuseLive(s); err != nil {
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
		name, err := keepCurrent(tx, store, it, s.SessionID, archive.KindSession, e.Verb, e.Actor(), now)
		if err != nil {
			return err
		}
		id := s.SessionID // s points into tx.Reg.Sessions, which the removal shifts
		kept, removed = name, id
		tx.RemoveSessionArchived(*s, name)
		return unbindSessions(tx, id) // the worktrees stay
	})
	if err != nil || kept == "" {
		return err
	}
	at := path.Base(strings.TrimSuffix(filepath.ToSlash(kept), "/"))
	fmt.Fprintf(e.Stderr, "removed session %s, archived first as %s; to bring it back: orc-state session restore %s\n",
		safetext.Escape(removed), safetext.Escape(kept), safetext.Operand(removed+"@"+at))
	return nil
}

// refuseLive refuses to remove an in_progress or paused session without
// --force; the hint finishes it first, never forces.
func (c *SessionRemoveCmd) refuseLive(s *registry.Session) error {
	if (s.Status == "in_progress" || s.Status == "paused") && !c.Force {
		return fault.Usagef("session %s is %s; refusing to remove a live session", safetext.Escape(s.SessionID), s.Status).
			WithHint("finish it first (orc-state status set completed --session=%s), then orc-state session remove --session=%s; %s",
				safetext.Quote(s.SessionID), safetext.Quote(s.SessionID), restoreHint(s.SessionID))
	}
	return nil
}
