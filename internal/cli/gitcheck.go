package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// statusTimeout bounds the git status subprocess.
const statusTimeout = 5 * time.Second

// reality is what git says about a session's branch, gathered once (before
// any lock) and shared by verify and resume.
type reality struct {
	repo     *gitx.Repo
	worktree string // where the branch is checked out; "" when nowhere
	head     gitx.Head
	headOK   bool // the branch has a commit
	unborn   bool
	log      []gitx.Commit
	status   *gitx.Status // nil when the branch is not checked out or git failed
	dirty    []string     // dirty paths, the state dir excluded
	err      error
}

// observe reads the branch's head, its last n commits, and (where it is
// checked out) the dirty list.
func observe(d *state.Dir, branch string, n int) reality {
	var g reality
	if d.Git == nil {
		g.err = fmt.Errorf("not inside a git repository")
		return g
	}
	trees, _ := d.Git.Worktrees()
	g.worktree = trees[branch]
	if _, detached, _ := d.Git.CurrentBranch(); g.worktree == "" && detached {
		g.worktree = d.Git.WorktreeRoot // mid-rebase or a detached checkout: describe it
	}
	root := g.worktree
	if root == "" {
		root = d.Git.WorktreeRoot
	}
	if g.repo, g.err = gitx.Open(root); g.err != nil {
		return g
	}
	if g.worktree != "" {
		// git status (a subprocess) runs while go-git reads HEAD and the
		// log: on a large repository each takes tens of milliseconds.
		type result struct {
			st  gitx.Status
			err error
		}
		done := make(chan result, 1)
		ctx, cancel := context.WithTimeout(context.Background(), statusTimeout)
		defer cancel()
		go func() {
			st, err := g.repo.Status(ctx)
			done <- result{st, err}
		}()
		h, err := g.repo.Head()
		if err != nil {
			g.err = err
			<-done
			return g
		}
		g.head, g.headOK, g.unborn = h, !h.Unborn, h.Unborn
		if n > 0 {
			g.log, _ = g.repo.Log(n)
		}
		if r := <-done; r.err == nil {
			g.status = &r.st
			rel, _ := filepath.Rel(g.worktree, d.Path)
			g.dirty = dirtyPaths(r.st, filepath.ToSlash(rel))
		}
		return g
	}
	sha, ok := g.repo.BranchHead(branch)
	if !ok {
		if sha, ok = remoteTracking(g.repo, branch); !ok {
			return g
		}
	}
	g.headOK = true
	g.head = gitx.Head{SHA: sha, Branch: branch}
	if c, ok := g.repo.Commit(sha); ok {
		g.head.Subject = c.Subject
	}
	if n > 0 {
		g.log, _ = g.repo.LogFrom(sha, n)
	}
	return g
}

// remoteTracking finds the branch as a remote-tracking ref (origin first):
// in a clone that received the session by sync, the branch may exist only
// there.
func remoteTracking(r *gitx.Repo, branch string) (string, bool) {
	refs, err := r.Refs("refs/remotes/")
	if err != nil {
		return "", false
	}
	if sha, ok := refs["refs/remotes/origin/"+branch]; ok {
		return sha, true
	}
	for _, name := range sortedKeys(refs) {
		if strings.HasSuffix(name, "/"+branch) && !strings.HasSuffix(name, "/HEAD") {
			return refs[name], true
		}
	}
	return "", false
}

// gitFindings cross-checks the session's claims against git.
func gitFindings(d *state.Dir, s *registry.Session, g reality) []verify.Finding {
	if g.err != nil {
		if d.Git == nil {
			return nil
		}
		return []verify.Finding{{Code: "git.unreadable", Message: g.err.Error(), Next: "git status (check the repository)"}}
	}
	if !g.headOK && !g.unborn {
		return []verify.Finding{{Code: "git.branch-missing", Message: fmt.Sprintf("branch %q does not exist", s.GitBranch),
			Next: "orc-state session remove " + s.SessionID + " (if the work is finished)"}}
	}
	var out []verify.Finding
	if g.headOK { // an unborn branch has no commits to check claims against
		if f, ok := suiteFinding(d, g.repo, s, g.head.SHA); ok {
			out = append(out, f)
		}
		out = append(out, sliceFindings(d, g.repo, s, g.head.SHA)...)
	}
	if g.status != nil && g.status.TimedOut {
		out = append(out, verify.Finding{Code: "git.status-timeout", Message: "git status did not answer in time; the dirty list is unknown",
			Next: "git status (warm the index), then retry"})
	}
	if len(g.dirty) > 0 {
		out = append(out, verify.Finding{Code: "git.dirty",
			Message: fmt.Sprintf("%d uncommitted file(s): %s", len(g.dirty), strings.Join(first(g.dirty, 5), ", ")),
			Next:    "commit or stash the changes, then orc-state checkpoint --auto"})
	}
	return out
}

// suiteFinding compares the digest's Suite sha with head.
func suiteFinding(d *state.Dir, r *gitx.Repo, s *registry.Session, head string) (verify.Finding, bool) {
	dg, ok := sessionDigest(d, s)
	if !ok || dg.SuiteSHA == "" {
		return verify.Finding{}, false
	}
	next := "run the suite at HEAD, then orc-state digest write - --branch " + s.SessionID
	verdict := suiteVerdict(r, dg.SuiteSHA, head)
	switch verdict.code {
	case "":
		return verify.Finding{}, false
	default:
		return verify.Finding{Code: verdict.code, Message: verdict.message, Next: next}, true
	}
}

type claimVerdict struct{ code, message string }

// suiteVerdict says how a claimed sha relates to head: "" when equal.
func suiteVerdict(r *gitx.Repo, claim, head string) claimVerdict {
	full, ok := r.ResolveCommit(claim)
	if !ok {
		return claimVerdict{"suite.unknown-commit", fmt.Sprintf("Suite sha %s is not a commit of this repository", claim)}
	}
	if full == head {
		return claimVerdict{}
	}
	n, reachable, err := r.CommitsBetween(full, head)
	switch {
	case err != nil:
		return claimVerdict{"suite.unchecked", fmt.Sprintf("cannot compare Suite sha %s with HEAD: %v", claim, err)}
	case reachable:
		return claimVerdict{"suite.behind", fmt.Sprintf("HEAD is %d commit(s) ahead of the Suite sha %s", n, claim)}
	default:
		return claimVerdict{"suite.diverged", fmt.Sprintf("Suite sha %s is not an ancestor of HEAD %s", claim, short(head))}
	}
}

// sessionDigest parses the session's Resume digest, if it is well formed.
func sessionDigest(d *state.Dir, s *registry.Session) (checkpoint.Digest, bool) {
	data, err := d.ReadFile(s.SessionID, state.CheckpointFile)
	if err != nil || data == nil {
		return checkpoint.Digest{}, false
	}
	content, _ := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.DigestHeading)
	dg, err := checkpoint.ParseDigest(content)
	return dg, err == nil
}

// sliceFindings checks the commits of committed slices: recorded
// unverified, unknown to the repository, or not reachable from head.
func sliceFindings(d *state.Dir, r *gitx.Repo, s *registry.Session, head string) []verify.Finding {
	data, err := d.ReadFile(s.SessionID, state.LedgerFile)
	if err != nil || data == nil {
		return nil
	}
	l, err := slices.Parse(data)
	if err != nil {
		return nil // reported by verify.Session
	}
	var out []verify.Finding
	for _, sl := range l.Slices() {
		if sl.Status != "committed" || sl.Commit == "" {
			continue
		}
		next := fmt.Sprintf("check the slice's commit, then orc-state slice set %s --status committed --commit <sha> --force", sl.ID)
		full, ok := r.ResolveCommit(sl.Commit)
		if !ok {
			out = append(out, verify.Finding{Code: "slice.unknown-commit", Next: next,
				Message: fmt.Sprintf("slice %s is committed at %s, which is not a commit of this repository", sl.ID, sl.Commit)})
			continue
		}
		if _, reachable, err := r.CommitsBetween(full, head); err == nil && !reachable {
			out = append(out, verify.Finding{Code: "slice.unreachable-commit", Next: next,
				Message: fmt.Sprintf("slice %s commit %s is not reachable from the branch head", sl.ID, sl.Commit)})
		} else if sl.Unverified {
			out = append(out, verify.Finding{Code: "slice.unverified-commit", Next: "orc-state slice set " + sl.ID + " --status committed --commit " + sl.Commit + " --force (records it as verified)",
				Message: fmt.Sprintf("slice %s commit %s was recorded unverified; it resolves now", sl.ID, sl.Commit)})
		}
	}
	return out
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
