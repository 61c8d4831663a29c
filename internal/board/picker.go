package board

// sessions --json: the rows a resume picker lists.

import (
	"sort"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// PickerRow is one `sessions --json` row: the entry plus what a resume
// picker needs from git.
type PickerRow struct {
	registry.Session
	BranchExists bool    `json:"branchExists"`
	Worktree     *string `json:"worktree"`
	// HeadMovedSinceCheckpoint compares the branch head with the HEAD the
	// last Auto-checkpoint recorded; null when either is unknown.
	HeadMovedSinceCheckpoint *bool `json:"headMovedSinceCheckpoint"`
}

// PickerRows returns the sessions newest first with their git facts: the
// branch exists (Repo.Branches), where it is checked out (git worktree list;
// a work tree deleted but not pruned counts as none), and whether the
// branch head moved since the last Auto-checkpoint. The head is HEAD of
// the work tree that has the branch checked out (detached mid-rebase
// included), else the branch tip.
func PickerRows(d *state.Dir, list []registry.Session) []PickerRow {
	rows := make([]PickerRow, 0, len(list))
	var repo *gitx.Repo
	var branches map[string]string
	var trees []gitx.Worktree
	if d.Git != nil {
		if r, err := gitx.OpenLayout(*d.Git); err == nil {
			defer r.Close()
			if b, err := r.Branches(); err == nil {
				repo, branches = r, b
				trees, _ = d.Git.Worktrees()
			}
		}
	}
	for _, s := range list {
		row := PickerRow{Session: s}
		if repo != nil {
			head, ok := branches[s.GitBranch]
			row.BranchExists = ok
			if w, found := gitx.CheckedOut(trees, s.GitBranch); found && !w.Missing {
				path := w.Path
				row.Worktree = &path
				if w.Detached && w.HeadID != "" {
					head, ok = w.HeadID, true
				}
			}
			if recorded := autoHead(d, s.SessionID); ok && recorded != "" {
				moved := !strings.HasPrefix(head, recorded)
				row.HeadMovedSinceCheckpoint = &moved
			}
		}
		rows = append(rows, row)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].UpdatedAt > rows[j].UpdatedAt })
	return rows
}

// autoHead is the short sha the session's Auto-checkpoint recorded, or "".
func autoHead(d *state.Dir, id string) string {
	data, err := d.ReadFile(id, state.CheckpointFile)
	if err != nil || data == nil {
		return ""
	}
	content, _ := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.AutoHeading)
	return checkpoint.AutoHeadSHA(content)
}
