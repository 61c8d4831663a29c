package cli

import (
	"sort"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// pickerRow is one `sessions --json` row: the entry plus what a resume
// picker needs from git.
type pickerRow struct {
	registry.Session
	BranchExists bool    `json:"branchExists"`
	Worktree     *string `json:"worktree"`
}

// pickerRows returns the sessions newest first with their git facts.
func pickerRows(d *state.Dir, list []registry.Session) []pickerRow {
	rows := make([]pickerRow, 0, len(list))
	var repo *gitx.Repo
	var trees map[string]string
	if d.Git != nil {
		repo, _ = gitx.Open(d.Git.WorktreeRoot)
		trees, _ = d.Git.Worktrees()
	}
	for _, s := range list {
		row := pickerRow{Session: s}
		if repo != nil {
			row.BranchExists = repo.BranchExists(s.GitBranch)
		}
		if w, ok := trees[s.GitBranch]; ok {
			row.Worktree = &w
		}
		rows = append(rows, row)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].UpdatedAt > rows[j].UpdatedAt })
	return rows
}
