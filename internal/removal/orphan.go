package removal

import (
	"path"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// RemoveOrphan is `repair --remove-orphan NAME`: the session folder no
// entry owns, archived first and removed with a tombstone (fix's);
// git is asked first, never under the lock, whether it tracks the folder.
// It returns repair's line for stdout and, when the folder was kept, the
// line for stderr naming the restore that brings it back.
func (r Run) RemoveOrphan(name string, fix func() repair.Run) (out, errs []string, err error) {
	if repair.OrphanName(name) {
		d, err := r.Where.Dir()
		if err != nil {
			return nil, nil, err
		}
		if err := repair.Untracked(d, name); err != nil {
			return nil, nil, err
		}
	}
	err = r.Keep(nil, func(d *state.Dir) ([]*archive.Item, error) {
		return fix().OrphanItems(d, name)
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		out, errs = nil, nil
		kept, err := fix().RemoveOrphan(tx, name, func(now archive.Snapshot) (string, error) {
			var it *archive.Item
			if len(items) > 0 {
				it = items[0]
			}
			return KeepCurrent(tx, store, it, name, archive.KindOrphan, r.Verb, r.Actor, now)
		})
		if err != nil {
			return err
		}
		out = []string{"removed orphan folder " + safetext.Escape(name)}
		if kept != "" {
			errs = []string{"archived as " + safetext.Escape(kept) + ": orc-state session restore " +
				safetext.Operand(name+"@"+path.Base(kept)) + " brings it back"}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, errs, nil
}
