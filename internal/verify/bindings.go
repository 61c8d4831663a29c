package verify

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Bindings are the problems of the bindings to session id (every
// binding when id is ""), for verify and doctor: an unusable
// worktrees.json (worktrees.invalid), a bound worktree that is gone
// (worktree.gone), a binding to a session that does not exist
// (worktree.no-session), and a bound worktree whose branch has a session
// of its own (worktree.conflict, selection.BranchSession). reg is the
// registry the bindings are judged on: read whole (doctor), or holding
// at least session id (verify).
func Bindings(d *state.Dir, env environ.List, id string, reg *registry.Registry) []Finding {
	f, err := selection.ReadBindings(d)
	if err != nil {
		return []Finding{{Code: "worktrees.invalid", Message: err.Error(),
			Next: "fix or remove .orc/" + binding.FileName + " by hand (orc-state worktree join binds a worktree again)"}}
	}
	var out []Finding
	for _, b := range f.Worktrees {
		if id != "" && b.Session != id {
			continue
		}
		leave := "orc-state worktree leave " + safetext.Quote(b.Path)
		if reg.Exact(b.Session) == nil {
			out = append(out, Finding{Code: "worktree.no-session", Next: leave,
				Message: fmt.Sprintf("the worktree %s is bound to session %s, which does not exist", safetext.Escape(b.Path), b.Session)})
			continue
		}
		if Foreign(d, b) {
			// only this repository's worktrees can be bound (join and add
			// bind where they run): a planted or copied binding
			out = append(out, Finding{Code: "worktree.foreign", Next: leave,
				Message: fmt.Sprintf("the worktree %s bound to session %s is not a worktree of this repository (its git dir %s is outside %s)",
					safetext.Escape(b.Path), b.Session, safetext.Escape(b.GitDir), safetext.Escape(filepath.Join(d.Git.CommonDir, "worktrees")))})
			continue
		}
		l, err := gitx.Discover(b.Path, gitx.CleanEnv(env))
		if err != nil || !gitx.SameDir(l.WorktreeRoot, b.Path) || !gitx.SameDir(l.GitDir, b.GitDir) || !sameMaking(b, l.GitDir) {
			out = append(out, Finding{Code: "worktree.gone", Next: leave,
				Message: fmt.Sprintf("the worktree %s bound to session %s is gone", safetext.Escape(b.Path), b.Session)})
			continue
		}
		if branch, detached, err := l.CurrentBranch(); err == nil && !detached && branch != "" {
			if o := selection.BranchSession(d, reg, branch); o != nil && o.SessionID != b.Session {
				out = append(out, Finding{Code: "worktree.conflict", Next: leave + " (or check out another branch there)",
					Message: fmt.Sprintf("the worktree %s is bound to session %s, but its branch %s has its own session %s", safetext.Escape(b.Path), b.Session, safetext.Escape(branch), o.SessionID)})
			}
		}
	}
	return out
}

// sameMaking reports whether the worktree whose git dir is gitDir is the
// one b was made for (binding.Binding.GitDirMade).
func sameMaking(b binding.Binding, gitDir string) bool {
	return b.GitDirMade == "" || b.GitDirMade == binding.MadeAt(gitDir)
}

// Foreign reports whether binding b names a worktree of another repository
// than the state dir's: its git dir is outside <common dir>/worktrees
// (only this repository's worktrees can be bound; join and add bind where
// they run, so a planted or copied binding). worktree list shows it so.
func Foreign(d *state.Dir, b binding.Binding) bool {
	return d.Git != nil && d.Git.CommonDir != "" && !Inside(b.GitDir, filepath.Join(d.Git.CommonDir, "worktrees"))
}

// Inside reports whether path is dir or beneath it, symbolic links of the
// longest existing prefix of path resolved as in dir.
func Inside(path, dir string) bool {
	real := func(p string) string {
		rest := ""
		for {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return filepath.Join(r, rest)
			}
			parent := filepath.Dir(p)
			if parent == p {
				return filepath.Join(p, rest)
			}
			rest = filepath.Join(filepath.Base(p), rest)
			p = parent
		}
	}
	rel, err := filepath.Rel(real(dir), real(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
