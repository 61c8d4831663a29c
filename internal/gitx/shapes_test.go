package gitx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestSHA256 reads a SHA-256 repository through git exactly as a SHA-1 one.
func TestSHA256(t *testing.T) {
	t.Parallel()
	repo := initRepo(t, "--object-format=sha256")
	first := commitFile(t, repo, "a.txt", "a\n", "first")
	second := commitFile(t, repo, "b.txt", "b\n", "second")
	if len(second) != 64 {
		t.Fatalf("git made a %d-hex id; want a SHA-256 repository", len(second))
	}
	r := mustOpen(t, repo)
	defer r.Close()
	if h := mustHead(t, r); h.SHA != second || h.Branch != "main" || h.Subject != "second" {
		t.Errorf("Head = %+v", h)
	}
	for _, claim := range []string{first, first[:7], strings.ToUpper(first[:12])} {
		if c := r.CheckClaim(claim); !c.OK() || c.Full != first {
			t.Errorf("CheckClaim(%s) = %+v", claim, c)
		}
	}
	if c := r.CheckClaim(strings.Repeat("0", 64)); c.State != ClaimNotCommit {
		t.Errorf("CheckClaim(zeros) = %+v", c)
	}
	if sha, ok, err := r.BranchHead("main"); !ok || err != nil || sha != second {
		t.Errorf("BranchHead = %s, %v, %v", sha, ok, err)
	}
	if n, reach, err := r.CommitsBetween(first[:9], "HEAD"); n != 1 || !reach || err != nil {
		t.Errorf("CommitsBetween = %d, %v, %v", n, reach, err)
	}
	writeFile(t, repo, "a.txt", "changed\n")
	o := r.ObserveBranch(context.Background(), "main", 5)
	if o.HeadErr != "" || o.Head.SHA != second || !o.Dirty.Known || len(o.Dirty.Entries) != 1 || len(o.Log) != 2 {
		t.Errorf("ObserveBranch = %+v", o)
	}
	l := r.Layout()
	if sha, ok := l.BranchSHA("main"); !ok || sha != second {
		t.Errorf("BranchSHA = %s, %v", sha, ok)
	}
}

// TestShallowBoundary: a commit the shallow clone lacks is "beyond the
// shallow boundary", never "not a commit", and an ancestry question that
// crosses the boundary has no answer.
func TestShallowBoundary(t *testing.T) {
	t.Parallel()
	src := initRepo(t)
	c := map[int]string{}
	for i := 1; i <= 5; i++ {
		c[i] = commit(t, src, "c"+string(rune('0'+i)))
		if i == 2 {
			mustGit(t, src, "branch", "old")
		}
	}
	clone := filepath.Join(tempDir(t), "clone")
	mustGit(t, src, "clone", "-q", "--depth", "2", "--no-single-branch", "file://"+src, clone)
	r := mustOpen(t, clone)
	defer r.Close()
	if cl := r.CheckClaim(c[3][:10]); cl.State != ClaimBeyondShallow || !strings.Contains(cl.Problem(), "git fetch --unshallow") {
		t.Errorf("CheckClaim(c3) = %+v (%s)", cl, cl.Problem())
	}
	if cl := r.CheckClaim(c[4]); !cl.OK() {
		t.Errorf("CheckClaim(c4) = %+v", cl)
	}
	// c2 is here (the tip of old), but c5's history stops at c4.
	if _, _, err := r.CommitsBetween(c[2], c[5]); !errors.Is(err, ErrBeyondShallow) {
		t.Errorf("CommitsBetween(c2, c5) err = %v, want ErrBeyondShallow", err)
	}
	if n, reach, err := r.CommitsBetween(c[4], c[5]); n != 1 || !reach || err != nil {
		t.Errorf("CommitsBetween(c4, c5) = %d, %v, %v", n, reach, err)
	}
	log, err := r.LogFrom(c[5], 10)
	if err != nil || len(log) != 2 {
		t.Errorf("LogFrom = %+v, %v; want the 2 commits git has", log, err)
	}
}

// TestPartialCloneNeverFetches asks every read question in a blob:none
// partial clone, including about an object only the promisor remote has:
// no pack may arrive.
func TestPartialCloneNeverFetches(t *testing.T) {
	t.Parallel()
	src := initRepo(t)
	commitFile(t, src, "f.txt", "one\n", "one")
	oldBlob := mustGit(t, src, "rev-parse", "HEAD:f.txt")
	commitFile(t, src, "f.txt", "two\n", "two")
	mustGit(t, src, "config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(tempDir(t), "partial")
	mustGit(t, src, "clone", "-q", "--filter=blob:none", "file://"+src, clone)
	packs := func() string {
		ents, err := os.ReadDir(filepath.Join(clone, ".git", "objects", "pack"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return strings.Join(names, " ")
	}
	before := packs()
	r := mustOpen(t, clone)
	if c := r.CheckClaim(oldBlob); c.OK() {
		t.Errorf("CheckClaim(a blob) = %+v", c)
	}
	if c := r.CheckClaim(strings.Repeat("1", 40)); c.OK() {
		t.Errorf("CheckClaim(absent) = %+v", c)
	}
	o := r.ObserveBranch(context.Background(), "main", 5)
	if o.HeadErr != "" || !o.Dirty.Known || len(o.Log) != 2 {
		t.Errorf("ObserveBranch = %+v", o)
	}
	r.Close()
	if after := packs(); after != before {
		t.Errorf("a read fetched objects: packs %s, were %s", after, before)
	}
	if _, err := runGit(t, clone, []string{"GIT_NO_LAZY_FETCH=1"}, "-c", "protocol.allow=never", "cat-file", "-e", oldBlob); err == nil {
		t.Error("the old blob arrived in the partial clone")
	}
}

// TestObserveBranch: --branch means that branch, wherever (and whether)
// it is checked out.
func TestObserveBranch(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	base := commit(t, repo, "base")
	tmp := tempDir(t)
	wt, gone := filepath.Join(tmp, "wt"), filepath.Join(tmp, "gone")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", wt)
	feat := commitFile(t, wt, "w.txt", "w\n", "on feat")
	writeFile(t, wt, "dirty.txt", "d\n")
	mustGit(t, repo, "branch", "idle")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "gone", gone)
	goneTip := commit(t, gone, "on gone")
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	mustGit(t, repo, "checkout", "-q", "--detach")
	r := mustOpen(t, repo)
	defer r.Close()
	ctx := context.Background()

	if o := r.ObserveBranch(ctx, "feat", 0); o.Worktree != wt || o.Head.SHA != feat || !o.Dirty.Known ||
		len(o.Dirty.Entries) != 1 || o.Dirty.Entries[0].Path != "dirty.txt" {
		t.Errorf("feat (checked out elsewhere) = %+v", o)
	}
	if o := r.ObserveBranch(ctx, "main", 0); o.Worktree != "" || o.Head.SHA != base || o.Head.Detached ||
		!o.Dirty.NotApplicable || o.Dirty.Reason != "branch not checked out" || !o.Exists {
		t.Errorf("main (from its own detached checkout) = %+v", o)
	}
	if o := r.ObserveBranch(ctx, "idle", 0); o.Head.SHA != base || !o.Dirty.NotApplicable {
		t.Errorf("idle = %+v", o)
	}
	if o := r.ObserveBranch(ctx, "gone", 0); o.Worktree != "" || o.Head.SHA != goneTip || !o.Dirty.NotApplicable ||
		!strings.Contains(o.Dirty.Reason, "missing") {
		t.Errorf("gone (worktree deleted, not pruned) = %+v", o)
	}
	if o := r.ObserveBranch(ctx, "nope", 0); o.Exists || o.Head.SHA != "" || o.HeadErr != "" {
		t.Errorf("nope = %+v", o)
	}
}

// TestObserveFailsClosed: when git refuses the repository, HEAD and the
// dirty list are unknown with git's reason, never empty.
func TestObserveFailsClosed(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commit(t, repo, "one")
	mustGit(t, repo, "config", "core.repositoryformatversion", "1")
	mustGit(t, repo, "config", "extensions.futureThing", "x")
	r := mustOpen(t, repo)
	defer r.Close()
	o := r.ObserveBranch(context.Background(), "main", 3)
	if o.HeadErr == "" || o.Dirty.Known || o.Dirty.NotApplicable || !strings.Contains(o.Dirty.Reason, "futurething") {
		t.Errorf("ObserveBranch = %+v; want HEAD and the dirty list unknown, naming the extension", o)
	}
}

// TestDubiousOwnership: a repository owned by another user is one git
// refuses (safe.directory); orc-state's answers are unknown with git's
// reason, never a clean tree. It needs root to hand the repository to
// another user.
func TestDubiousOwnership(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown the repository to another user")
	}
	repo := initRepo(t)
	commit(t, repo, "one")
	writeFile(t, repo, "dirty.txt", "d\n")
	if err := filepath.Walk(repo, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := runGit(t, repo, nil, "status"); err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Fatalf("git status = %v; the test needs git to refuse", err)
	}
	r := mustOpen(t, repo)
	defer r.Close()
	if _, err := r.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Errorf("Status error = %v", err)
	}
	o := r.ObserveBranch(context.Background(), "main", 3)
	if !strings.Contains(o.HeadErr, "dubious ownership") || o.Dirty.Known || !strings.Contains(o.Dirty.Reason, "dubious ownership") {
		t.Errorf("ObserveBranch = %+v", o)
	}
	// The ref files, readable here, are not read in git's place.
	if sha, ok, err := r.BranchHead("main"); err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Errorf("BranchHead = %q, %v, %v; want git's refusal", sha, ok, err)
	}
	if refs, err := r.Layout().ListRefs(context.Background(), "refs/heads/"); err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Errorf("ListRefs = %v, %v; want git's refusal", refs, err)
	}
}
