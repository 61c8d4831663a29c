package gitx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Worktrees lists the worktrees that have a branch checked out (main and
// linked) as branch → absolute worktree path. It reads
// <CommonDir>/worktrees/*/{HEAD,gitdir} by hand plus the main worktree's
// HEAD. Detached worktrees are omitted, unborn branches are included, and
// when two worktrees share a branch (git worktree add --force) the main one,
// then the first in directory order, wins. Worktrees whose directory was
// deleted but not pruned are still listed, as git still considers their
// branch checked out.
func (r *Repo) Worktrees() (map[string]string, error) {
	return r.layout.Worktrees()
}

// Worktrees is Repo.Worktrees without opening the repository.
func (l Layout) Worktrees() (map[string]string, error) {
	out := map[string]string{}
	if root, ok := l.mainWorktree(); ok {
		b, err := os.ReadFile(filepath.Join(l.CommonDir, "HEAD"))
		if err != nil {
			return nil, fmt.Errorf("read main worktree HEAD: %w", err)
		}
		if br, detached, err := parseHEAD(b); err == nil && !detached {
			out[br] = root
		}
	}
	dir := filepath.Join(l.CommonDir, "worktrees")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		br, path, ok := readLinkedWorktree(filepath.Join(dir, e.Name()))
		if !ok {
			continue
		}
		if _, dup := out[br]; !dup {
			out[br] = path
		}
	}
	return out, nil
}

// readLinkedWorktree reads one <CommonDir>/worktrees/<id> admin dir. ok is
// false for detached, half-created or unreadable entries.
func readLinkedWorktree(admin string) (branch, path string, ok bool) {
	head, err := os.ReadFile(filepath.Join(admin, "HEAD"))
	if err != nil {
		return "", "", false
	}
	branch, detached, err := parseHEAD(head)
	if err != nil || detached {
		return "", "", false
	}
	gd, err := os.ReadFile(filepath.Join(admin, "gitdir"))
	if err != nil {
		return "", "", false
	}
	p := strings.TrimSpace(string(gd)) // path of the worktree's .git file
	if p == "" {
		return "", "", false
	}
	if !filepath.IsAbs(p) { // extensions.relativeWorktrees (git >= 2.48)
		p = filepath.Join(admin, p)
	}
	return branch, filepath.Dir(filepath.Clean(p)), true
}

// mainWorktree returns the main worktree's root when it can be known from
// the layout: the parent of a common dir named .git, or the current worktree
// when it is not a linked one (a submodule's git dir lives under
// .git/modules). A bare common dir seen from a linked worktree has none.
func (l Layout) mainWorktree() (string, bool) {
	if filepath.Base(l.CommonDir) == ".git" {
		return filepath.Dir(l.CommonDir), true
	}
	if !l.IsLinked() {
		return l.WorktreeRoot, true
	}
	return "", false
}
