package cli

import (
	"sort"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
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
	// HeadMovedSinceCheckpoint compares the branch head with the HEAD the
	// last Auto-checkpoint recorded; null when either is unknown.
	HeadMovedSinceCheckpoint *bool `json:"headMovedSinceCheckpoint"`
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
		if w, ok := trees[s.GitBranch]; ok {
			row.Worktree = &w
		}
		if repo != nil {
			head, ok := repo.BranchHead(s.GitBranch)
			row.BranchExists = ok
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

var autoHeadLine = lazyRegexp(`(?m)^- HEAD: (?:detached at )?([0-9a-f]{7,40})\b`)

// autoHead is the short sha the session's Auto-checkpoint recorded, or "".
func autoHead(d *state.Dir, id string) string {
	data, err := d.ReadFile(id, state.CheckpointFile)
	if err != nil || data == nil {
		return ""
	}
	content, _ := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.AutoHeading)
	if m := autoHeadLine().FindSubmatch(content); m != nil {
		return string(m[1])
	}
	return ""
}
