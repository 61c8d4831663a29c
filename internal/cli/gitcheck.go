package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// statusTimeout bounds the git status subprocess.
const statusTimeout = 5 * time.Second

// gitFindings cross-checks the session's claims against git: the digest's
// Suite sha against the branch head, and a dirty tree where the branch is
// checked out here. Without a repository there is nothing to check.
func (e *Env) gitFindings(d *state.Dir, s *registry.Session) []verify.Finding {
	if d.Git == nil {
		return nil
	}
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return []verify.Finding{{Code: "git.unreadable", Message: err.Error(), Next: "git status (check the repository)"}}
	}
	var out []verify.Finding
	cur, _, _ := d.Git.CurrentBranch()
	head, ok := r.BranchHead(s.GitBranch)
	if !ok && cur == s.GitBranch {
		return nil // an unborn branch: no commits to check claims against
	}
	if !ok {
		return append(out, verify.Finding{Code: "git.branch-missing",
			Message: fmt.Sprintf("branch %q does not exist", s.GitBranch),
			Next:    "orc-state session remove " + s.SessionID + " (if the work is finished)"})
	}
	if f, ok := suiteFinding(d, r, s, head); ok {
		out = append(out, f)
	}
	if cur == s.GitBranch {
		ctx, cancel := context.WithTimeout(context.Background(), statusTimeout)
		defer cancel()
		st, err := r.Status(ctx)
		if err == nil && !st.TimedOut {
			rel, _ := filepath.Rel(d.Git.WorktreeRoot, d.Path)
			paths := dirtyPaths(st, filepath.ToSlash(rel))
			if len(paths) > 0 {
				out = append(out, verify.Finding{Code: "git.dirty",
					Message: fmt.Sprintf("%d uncommitted file(s): %s", len(paths), strings.Join(first(paths, 5), ", ")),
					Next:    "commit or stash the changes, then orc-state checkpoint --auto"})
			}
		}
	}
	return out
}

// suiteFinding compares the digest's Suite sha with head.
func suiteFinding(d *state.Dir, r *gitx.Repo, s *registry.Session, head string) (verify.Finding, bool) {
	data, err := d.ReadFile(s.SessionID, state.CheckpointFile)
	if err != nil || data == nil {
		return verify.Finding{}, false
	}
	content, _ := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.DigestHeading)
	dg, err := checkpoint.ParseDigest(content)
	if err != nil || dg.SuiteSHA == "" {
		return verify.Finding{}, false
	}
	next := "run the suite at HEAD, then orc-state digest write - --branch " + s.SessionID
	full, ok := r.ResolveCommit(dg.SuiteSHA)
	if !ok {
		return verify.Finding{Code: "suite.unknown-commit", Next: next,
			Message: fmt.Sprintf("Suite sha %s is not a commit of this repository", dg.SuiteSHA)}, true
	}
	if full == head {
		return verify.Finding{}, false
	}
	n, reachable, err := r.CommitsBetween(full, head)
	switch {
	case err != nil:
		return verify.Finding{Code: "suite.unchecked", Next: next,
			Message: fmt.Sprintf("cannot compare Suite sha %s with HEAD: %v", dg.SuiteSHA, err)}, true
	case reachable:
		return verify.Finding{Code: "suite.behind", Next: next,
			Message: fmt.Sprintf("HEAD is %d commit(s) ahead of the Suite sha %s", n, dg.SuiteSHA)}, true
	default:
		return verify.Finding{Code: "suite.diverged", Next: next,
			Message: fmt.Sprintf("Suite sha %s is not an ancestor of HEAD %s", dg.SuiteSHA, head[:12])}, true
	}
}

// dirtyPaths lists the dirty paths, the state dir (relative to the
// worktree root, slash-separated) excluded.
func dirtyPaths(st gitx.Status, stateRel string) []string {
	var out []string
	for _, en := range st.Entries {
		if en.Path == stateRel || strings.HasPrefix(en.Path, stateRel+"/") || en.Path == ".orc" || strings.HasPrefix(en.Path, ".orc/") {
			continue
		}
		out = append(out, en.Path)
	}
	return out
}

func first(list []string, n int) []string {
	if len(list) > n {
		return list[:n]
	}
	return list
}
