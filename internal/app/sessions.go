package app

import (
	"github.com/orc-state/orc-state/internal/board"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/registry"
)

// SessionList is what `sessions` prints: the sessions, in the registry's
// order, then the workspace sessions this repository is a member of; and,
// when asked for pickers, the same rows with branchExists and worktree.
type SessionList struct {
	Sessions []registry.Session
	Pickers  []board.PickerRow // nil unless asked for
}

// Sessions lists the sessions of the state dir with status (every one
// when status is ""), and of the workspaces this repository is linked to
// (selection.LinkedSessions); with pickers, also as rows for pickers
// (board.PickerRows). A plain read: no lock, nothing written.
func Sessions(sd *StateDir, status string, pickers bool) (SessionList, error) {
	d, err := sd.Dir()
	if err != nil {
		return SessionList{}, err
	}
	reg, _, err := d.ReadRegistry() // no lock
	if err != nil {
		return SessionList{}, err
	}
	var list []registry.Session
	for _, s := range reg.Sessions {
		if status == "" || s.Status == status {
			list = append(list, s)
		}
	}
	for _, l := range selection.LinkedSessions(d) { // the workspace sessions this repository is a member of
		if (status == "" || l.Session.Status == status) && reg.Exact(l.Session.SessionID) == nil {
			list = append(list, *l.Session)
		}
	}
	res := SessionList{Sessions: list}
	if pickers {
		res.Pickers = board.PickerRows(d, list)
	}
	return res, nil
}
