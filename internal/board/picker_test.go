package board

import (
	"path/filepath"
	"testing"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Outside a repository the picker's rows are the sessions newest first
// (ties in their order), with no git fact: no branch, no worktree, and
// no answer on whether the head moved.
func TestPickerRowsNewestFirstWithoutGit(t *testing.T) {
	d := &state.Dir{Path: filepath.Join(t.TempDir(), ".orc")}
	list := []registry.Session{
		{SessionID: "old", UpdatedAt: "2026-01-01T00:00:00Z"},
		{SessionID: "new", UpdatedAt: "2026-03-01T00:00:00Z"},
		{SessionID: "tie", UpdatedAt: "2026-01-01T00:00:00Z"},
	}
	rows := PickerRows(d, list)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.SessionID)
		if r.BranchExists || r.Worktree != nil || r.HeadMovedSinceCheckpoint != nil {
			t.Errorf("%s: git facts without git: %+v", r.SessionID, r)
		}
	}
	if len(ids) != 3 || ids[0] != "new" || ids[1] != "old" || ids[2] != "tie" {
		t.Errorf("order %q, want new, old, tie", ids)
	}
}
