package verify

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// statusTimeout bounds the git status subprocess.
const statusTimeout = 5 * time.Second

// Reality is what git says about a session's branch, gathered once (before
// any lock) and shared by verify, resume, sessions and the Auto-checkpoint.
type Reality struct {
	Repo     *gitx.Repo
	Worktree string // where the branch is checked out; "" when nowhere
	Head     gitx.Head
	HeadOK   bool // Head names a commit: the work tree's HEAD, or the branch tip
	Unborn   bool
	Remote   bool // the branch exists only as a remote-tracking ref; Head is its tip
	Log      []gitx.Commit
	Dirty    gitx.Dirty // known, not applicable or unknown (why)
	Paths    []string   // dirty paths, the state dir excluded (when Dirty.Known)
	Err      error      // git could not say what HEAD is (why)
}

// Observe reads the branch's head, its last n commits and, where it is
// checked out, the dirty list (gitx.Repo.ObserveBranch). The caller closes
// it.
func Observe(d *state.Dir, branch string, n int) Reality { return observe(d, branch, n, false) }

// ObserveOnly is Observe for a caller that asks git nothing more (the
// Auto-checkpoint): the object reader stops as soon as its reads are done,
// beside git status (gitx.Repo.ObserveBranchLast), so no git process is
// left to wait for. Closing it is still the caller's.
func ObserveOnly(d *state.Dir, branch string, n int) Reality { return observe(d, branch, n, true) }

func observe(d *state.Dir, branch string, n int, last bool) Reality {
	var g Reality
	if d.Git == nil {
		g.Err = fmt.Errorf("not inside a git repository")
		g.Dirty.Reason = g.Err.Error()
		return g
	}
	if g.Repo, g.Err = gitx.OpenLayout(*d.Git); g.Err != nil {
		g.Dirty.Reason = g.Err.Error()
		return g
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusTimeout)
	defer cancel()
	var o gitx.Observation
	if last {
		o = g.Repo.ObserveBranchLast(ctx, branch, n)
	} else {
		o = g.Repo.ObserveBranch(ctx, branch, n)
	}
	g.Worktree, g.Head, g.Log, g.Dirty = o.Worktree, o.Head, o.Log, o.Dirty
	if o.HeadErr != "" {
		g.Err = errors.New(o.HeadErr)
		return g
	}
	g.Unborn = o.Head.Unborn
	g.HeadOK = o.Head.SHA != ""
	if g.Dirty.Known {
		rel, _ := filepath.Rel(g.Worktree, d.Path)
		g.Paths = dirtyPaths(g.Dirty.Entries, filepath.ToSlash(rel))
	}
	if !g.HeadOK && !g.Unborn {
		// In a clone that received the session by sync, the branch may
		// exist only as a remote-tracking ref.
		if sha, ok := remoteTracking(g.Repo, branch); ok {
			g.Head, g.HeadOK, g.Remote = gitx.Head{SHA: sha, Branch: branch}, true, true
			if c, ok := g.Repo.Commit(sha); ok {
				g.Head.Subject = c.Subject
			}
			if n > 0 {
				g.Log, _ = g.Repo.LogFrom(sha, n)
			}
		}
	}
	return g
}

// Close stops the repository's git process.
func (g Reality) Close() {
	if g.Repo != nil {
		g.Repo.Close()
	}
}

// HeadState describes HEAD for people: "unknown (why)", "unborn",
// "missing (the branch does not exist)", "detached", "not checked out",
// or "branch B".
func (g Reality) HeadState(branch string) string {
	switch {
	case g.Err != nil:
		return "unknown (" + g.Err.Error() + ")"
	case g.Unborn:
		return "unborn"
	case !g.HeadOK:
		return "missing (the branch does not exist)"
	case g.Head.Detached:
		return "detached"
	case g.Remote:
		return "not checked out (remote-tracking tip)"
	case g.Worktree == "":
		return "not checked out"
	}
	return "branch " + branch
}

// DirtyNote is "" for a dirty list git gave, else why there is none:
// "unknown (why)" or "n/a (why)".
func (g Reality) DirtyNote() string {
	switch {
	case g.Dirty.Known:
		return ""
	case g.Dirty.NotApplicable:
		return "n/a (" + g.Dirty.Reason + ")"
	case g.Dirty.Reason == "":
		return "unknown"
	}
	return "unknown (" + g.Dirty.Reason + ")"
}

// remoteTracking finds the branch as a remote-tracking ref (origin first).
func remoteTracking(r *gitx.Repo, branch string) (string, bool) {
	refs, err := r.RemoteBranches()
	if err != nil {
		return "", false
	}
	if sha, ok := refs["refs/remotes/origin/"+branch]; ok {
		return sha, true
	}
	for _, name := range sortedKeys(refs) {
		if strings.HasSuffix(name, "/"+branch) {
			return refs[name], true
		}
	}
	return "", false
}

// Claims are what a session's files claim that git can check: the
// digest's Suite sha and the commits of committed slices.
type Claims struct {
	Digest checkpoint.Digest // zero when the digest is not well formed
	Ledger *slices.Ledger    // nil when there is none, or it does not parse
}

// ReadClaims reads the session's claims from its checkpoint and ledger.
func ReadClaims(d *state.Dir, s *registry.Session) Claims {
	var c Claims
	c.Digest, _ = SessionDigest(d, s)
	if data, err := d.ReadFile(s.SessionID, state.LedgerFile); err == nil && data != nil {
		if l, err := slices.Parse(data); err == nil {
			c.Ledger = l
		}
	}
	return c
}

// Git cross-checks the session's claims (read from its files) against
// git: GitClaims.
func Git(d *state.Dir, s *registry.Session, g Reality) []Finding {
	return GitClaims(d, s, g, ReadClaims(d, s))
}

// GitClaims cross-checks the claims c of the session against git, for a
// caller that has read them already (the resume packet reads them before
// git answers; reading them again would come after it). Unknown is never
// reported as clean: when git cannot answer (no git program included),
// the finding is git.unreadable.
func GitClaims(d *state.Dir, s *registry.Session, g Reality, c Claims) []Finding {
	unreadable := func(why string) []Finding {
		return []Finding{{Code: "git.unreadable", Message: "git cannot answer: " + why,
			Next: "run git status here to see why, fix that, then orc-state verify --session=" + safetext.Quote(s.SessionID)}}
	}
	if g.Err != nil {
		if d.Git == nil {
			return nil
		}
		return unreadable(g.Err.Error())
	}
	if !g.HeadOK && !g.Unborn {
		// No branch head to check reachability against; whether each
		// committed slice's commit exists at all can still be said.
		return append([]Finding{branchMissing(d, s)}, sliceFindings(d, g.Repo, s, c.Ledger, "", "")...)
	}
	var out []Finding
	if g.HeadOK { // an unborn branch has no commits to check claims against
		if f, ok := suiteFinding(g.Repo, s, c.Digest.SuiteSHA, g.Head.SHA); ok {
			out = append(out, f)
		}
		out = append(out, sliceFindings(d, g.Repo, s, c.Ledger, g.Head.SHA, g.Worktree)...)
	}
	switch {
	case g.Dirty.TimedOut:
		out = append(out, Finding{Code: "git.status-timeout", Message: "git status did not answer in time; the dirty list is unknown",
			Next: "git status (warm the index), then retry"})
	case g.Dirty.Known:
		if len(g.Paths) > 0 {
			out = append(out, Finding{Code: "git.dirty",
				Message: fmt.Sprintf("%d uncommitted file(s): %s", len(g.Paths), strings.Join(first(g.Paths, 5), ", ")),
				Next:    "commit or stash the changes, then orc-state checkpoint --session=" + safetext.Quote(s.SessionID)})
		}
	case g.Dirty.NotApplicable:
	default:
		out = append(out, unreadable("git status: "+g.Dirty.Reason)...)
	}
	return out
}

// branchMissing is the finding for a session whose branch git has neither
// here nor as a remote-tracking ref. A session pulled from a teammate
// (the sync log says so) is live elsewhere: its branch was never fetched,
// so the next step is fetching it, not removing the session.
func branchMissing(d *state.Dir, s *registry.Session) Finding {
	f := Finding{Code: "git.branch-missing", Message: fmt.Sprintf("branch %q does not exist", s.GitBranch),
		Next: "orc-state session remove --session=" + safetext.Quote(s.SessionID) + " (if the work is finished; " + RestoreHint(s.SessionID) + ")"}
	remote, pulled := refsync.PulledFrom(d, s.SessionID)
	if !pulled {
		return f
	}
	f.Message += " here; the session was pulled with orc-state sync, and its branch was never fetched"
	if strings.HasPrefix(remote, "url-") {
		f.Next = "git fetch REMOTE " + safetext.Quote(s.GitBranch) + " (REMOTE: the remote you pull from; the machine that works on it pushes the branch with git), then orc-state verify"
	} else {
		f.Next = "git fetch " + safetext.Quote(remote) + " " + safetext.Quote(s.GitBranch) + ":" + safetext.Quote("refs/remotes/"+remote+"/"+s.GitBranch) + " (the machine that works on it pushes the branch with git), then orc-state verify"
	}
	return f
}

// suiteFinding compares the digest's Suite sha (none: "") with head.
func suiteFinding(r *gitx.Repo, s *registry.Session, suite, head string) (Finding, bool) {
	if suite == "" {
		return Finding{}, false
	}
	v := SuiteVerdict(r, suite, head, s.SessionID)
	if v.Code == "" {
		return Finding{}, false
	}
	next := v.Next
	if next == "" {
		next = "run the suite at HEAD, then orc-state digest write - --session=" + safetext.Quote(s.SessionID)
	}
	return Finding{Code: v.Code, Message: v.Message, Next: next}, true
}

// ClaimVerdict is how a claimed sha relates to HEAD; next, when set, is
// the fix (one that never rewrites a sha that may be right).
type ClaimVerdict struct{ Code, Message, Next string }

// unshallow is the fix for a claim a shallow clone cannot check, in
// session id.
func unshallow(id string) string {
	return "git fetch --unshallow, then orc-state verify --session=" + safetext.Quote(id)
}

// SuiteVerdict says how a claimed sha relates to head: "" when equal. id
// is the session the claim is in, named by the fixes.
func SuiteVerdict(r *gitx.Repo, claim, head, id string) ClaimVerdict {
	c := r.CheckClaim(claim)
	switch c.State {
	case gitx.ClaimCommit:
	case gitx.ClaimNotCommit, gitx.ClaimAmbiguous:
		return ClaimVerdict{Code: "suite.unknown-commit", Message: fmt.Sprintf("Suite sha %s %s", claim, c.Problem())}
	case gitx.ClaimBeyondShallow:
		return ClaimVerdict{"suite.unchecked", fmt.Sprintf("Suite sha %s %s", claim, c.Problem()), unshallow(id)}
	default:
		return ClaimVerdict{"suite.unchecked", fmt.Sprintf("Suite sha %s %s", claim, c.Problem()), "run git status here to see why, then orc-state verify --session=" + safetext.Quote(id)}
	}
	if c.Full == head {
		return ClaimVerdict{}
	}
	n, reachable, err := r.CommitsBetween(c.Full, head)
	switch {
	case errors.Is(err, gitx.ErrBeyondShallow):
		return ClaimVerdict{"suite.unchecked", fmt.Sprintf("cannot tell whether the Suite sha %s is an ancestor of HEAD: %s", claim, gitx.BeyondShallow), unshallow(id)}
	case err != nil:
		return ClaimVerdict{Code: "suite.unchecked", Message: fmt.Sprintf("cannot compare Suite sha %s with HEAD: %v", claim, err)}
	case reachable:
		return ClaimVerdict{Code: "suite.behind", Message: fmt.Sprintf("HEAD is %d commit(s) ahead of the Suite sha %s", n, claim)}
	default:
		return ClaimVerdict{Code: "suite.diverged", Message: fmt.Sprintf("Suite sha %s is not an ancestor of HEAD %s", claim, short(head))}
	}
}

// SessionDigest parses the session's Resume digest, if it is well formed.
func SessionDigest(d *state.Dir, s *registry.Session) (checkpoint.Digest, bool) {
	data, err := d.ReadFile(s.SessionID, state.CheckpointFile)
	if err != nil || data == nil {
		return checkpoint.Digest{}, false
	}
	content, _ := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.DigestHeading)
	dg, err := checkpoint.ParseDigest(content)
	return dg, err == nil
}

// sliceFindings checks the commits of the committed slices of l (nil:
// none, or a ledger that does not parse, which verify.Session reports):
// recorded unverified, unknown to the repository, not reachable from
// head, or not checkable in a shallow clone. head "" is a branch that is
// missing: only whether each commit exists is checked. worktree is where
// the session's branch is checked out ("" when nowhere). Each next: step
// is the normal one (merge, fetch); --force is proposed only to record a
// commit again that is wrong.
func sliceFindings(d *state.Dir, r *gitx.Repo, s *registry.Session, l *slices.Ledger, head, worktree string) []Finding {
	if l == nil {
		return nil
	}
	sess := "--session=" + safetext.Quote(s.SessionID)
	remote, pulled := refsync.PulledFrom(d, s.SessionID)
	var out []Finding
	for _, sl := range l.Slices() {
		if sl.Status != "committed" || sl.Commit == "" {
			continue
		}
		c := r.CheckClaim(sl.Commit)
		switch c.State {
		case gitx.ClaimCommit:
		case gitx.ClaimNotCommit, gitx.ClaimAmbiguous:
			next := "git fetch (the commit may not have reached this clone yet), then orc-state verify " + sess +
				"; if the recorded commit is wrong, orc-state slice set --status=committed --commit=SHA --force " + sess + " " + safetext.Operand(sl.ID) + " (SHA: the commit that holds the slice)"
			if pulled && remote != "" && !strings.HasPrefix(remote, "url-") {
				next = "git fetch " + safetext.Quote(remote) + " (the machine that works on the session pushes its commits with git), then orc-state verify " + sess
			} else if pulled {
				next = "git fetch REMOTE (REMOTE: the remote you sync with; the machine that works on the session pushes its commits with git), then orc-state verify " + sess
			}
			out = append(out, Finding{Code: "slice.unknown-commit", Next: next,
				Message: fmt.Sprintf("slice %s is committed at %s, which %s", sl.ID, sl.Commit, c.Problem())})
			continue
		default:
			out = append(out, Finding{Code: "slice.unchecked-commit", Next: unshallow(s.SessionID),
				Message: fmt.Sprintf("slice %s commit %s %s", sl.ID, sl.Commit, c.Problem())})
			continue
		}
		if head == "" {
			continue // no branch head to reach it from
		}
		_, reachable, err := r.CommitsBetween(c.Full, head)
		switch {
		case errors.Is(err, gitx.ErrBeyondShallow):
			out = append(out, Finding{Code: "slice.unchecked-commit", Next: unshallow(s.SessionID),
				Message: fmt.Sprintf("cannot tell whether slice %s commit %s is reachable from the branch head: %s", sl.ID, sl.Commit, gitx.BeyondShallow)})
		case err == nil && !reachable:
			out = append(out, Finding{Code: "slice.unreachable-commit", Next: mergeStep(r, s, c.Full, worktree),
				Message: fmt.Sprintf("slice %s commit %s is not reachable from the branch head", sl.ID, sl.Commit)})
		case sl.Unverified:
			out = append(out, Finding{Code: "slice.unverified-commit", Next: "orc-state slice set --status=committed --commit=" + safetext.Quote(sl.Commit) + " --force " + sess + " " + safetext.Operand(sl.ID) + " (records it as verified)",
				Message: fmt.Sprintf("slice %s commit %s was recorded unverified; it resolves now", sl.ID, sl.Commit)})
		}
	}
	return out
}

// maxBranchesSearched bounds the branches mergeStep asks git about.
const maxBranchesSearched = 64

// mergeStep is the next step for a slice committed on a branch the
// session's branch does not contain yet (a worktree's branch, typically):
// merge that branch into the session's. The branch is named when one
// local branch (of the first maxBranchesSearched) holds the commit.
func mergeStep(r *gitx.Repo, s *registry.Session, full, worktree string) string {
	into := ""
	if worktree != "" {
		into = "git -C " + safetext.Quote(worktree) + " "
	} else {
		into = "(in a checkout of " + safetext.Quote(s.GitBranch) + ") git "
	}
	thenVerify := ", then orc-state verify --session=" + safetext.Quote(s.SessionID)
	var holders []string
	if branches, err := r.Branches(); err == nil && len(branches) <= maxBranchesSearched {
		for _, name := range sortedKeys(branches) {
			if name == s.GitBranch {
				continue
			}
			if _, ok, err := r.CommitsBetween(full, branches[name]); err == nil && ok {
				holders = append(holders, name)
			}
		}
	}
	if len(holders) == 1 {
		return "merge the branch that holds it into the session's branch: " + into + "merge -- " + safetext.Quote(holders[0]) + thenVerify
	}
	return "merge the branch that holds it (git branch --contains " + full + " names it) into the session's branch: " + into + "merge -- BRANCH" + thenVerify
}

// dirtyPaths lists the dirty paths, the state dir (relative to the
// worktree root, slash-separated) excluded.
func dirtyPaths(entries []gitx.StatusEntry, stateRel string) []string {
	var out []string
	for _, en := range entries {
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

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// RestoreHint is what a hint says about an archive kept by a removal.
func RestoreHint(id string) string {
	return fmt.Sprintf("its entry and files are archived first; orc-state session restore %s brings them back", safetext.Operand(id))
}
