package removal

import (
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
)

// Clean archives the planned sessions, then removes them under the lock
// with a tombstone each, re-checking each one: one already gone is said
// so, one that became live meanwhile is kept (without force), and one
// that changed since it was archived is archived again. It fills each
// removed row's Archive and returns how many were removed. Branches,
// worktrees and per-repository files stay.
func (r Run) Clean(plan []Row, force bool) (int, error) {
	planned := make([]Row, len(plan))
	copy(planned, plan)
	err := r.Keep(nil, func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, row := range planned {
			if row.Action == "remove" {
				ids = append(ids, row.Session)
			}
		}
		snaps, err := archive.ReadSessions(d, reg, ids)
		if err == nil {
			err = archiveBindings(d, snaps)
		}
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read a session to archive it").WithHint("run orc-state doctor")
		}
		var items []*archive.Item
		for _, id := range ids {
			if snaps[id] != nil {
				items = append(items, r.item(id, archive.KindSession, snaps[id]))
			}
		}
		return items, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		copy(plan, planned)
		return r.clean(tx, store, items, plan, force)
	})
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, row := range plan {
		if row.Archive != "" {
			removed++
		}
	}
	return removed, nil
}

// clean is Clean's transaction.
func (r Run) clean(tx *state.Tx, store *archive.Store, items []*archive.Item, plan []Row, force bool) error {
	var removed []string
	byID := map[string]*archive.Item{}
	var ids []string
	for _, it := range items {
		byID[it.Meta.Session] = it
		ids = append(ids, it.Meta.Session)
	}
	current, err := archive.ReadSessions(tx.Dir(), tx.Reg, ids)
	if err == nil {
		err = archiveBindings(tx.Dir(), current)
	}
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot read a session").WithHint("run orc-state doctor")
	}
	for i := range plan {
		if plan[i].Action != "remove" {
			continue
		}
		s := tx.Reg.Exact(plan[i].Session)
		if s == nil {
			plan[i].Action, plan[i].Reason = "gone", "already removed"
			continue
		}
		if live(s) && !force {
			plan[i].Action, plan[i].Reason = "keep", "became "+s.Status+" meanwhile"
			continue
		}
		now := current[s.SessionID]
		if byID[s.SessionID] == nil { // registered since it was read
			if now, err = archive.ReadSession(tx.Dir(), tx.Reg, s.SessionID); err == nil {
				err = archiveBindings(tx.Dir(), map[string]archive.Snapshot{s.SessionID: now})
			}
			if err != nil {
				return fault.Wrap(fault.Invalid, err, "cannot read %s", s.SessionID).WithHint("run orc-state doctor")
			}
		}
		name, err := r.keep(tx, store, byID[s.SessionID], s.SessionID, archive.KindSession, now)
		if err != nil {
			return err
		}
		plan[i].Archive = name
		removed = append(removed, s.SessionID) // before: s points into tx.Reg.Sessions, which the removal shifts
		tx.RemoveSessionArchived(*s, name)
	}
	return unbind(tx, removed...) // the worktrees stay
}
