package gitx

import (
	"github.com/orc-state/orc-state/internal/environ"

	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOpenFromSubdir(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	sha := commitFile(t, repo, "pkg/inner/x.go", "package x\n", "first line\n\nbody text")
	r := mustOpen(t, filepath.Join(repo, "pkg", "inner"))
	if got := r.Layout().WorktreeRoot; got != repo {
		t.Errorf("WorktreeRoot = %s, want %s", got, repo)
	}
	want := Head{SHA: sha, Branch: "main", Subject: "first line"}
	if got := mustHead(t, r); got != want {
		t.Errorf("Head = %+v, want %+v", got, want)
	}
}

func TestUnborn(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	r := mustOpen(t, repo)
	if got, want := mustHead(t, r), (Head{Branch: "main", Unborn: true}); got != want {
		t.Errorf("Head = %+v, want %+v", got, want)
	}
	log, err := r.Log(10)
	if err != nil || log == nil || len(log) != 0 {
		t.Errorf("Log = %v, %v; want empty, nil", log, err)
	}
	if _, ok := r.ResolveCommit("0123456789abcdef0123456789abcdef01234567"); ok {
		t.Error("ResolveCommit ok in an unborn repository")
	}
	if r.BranchExists("main") {
		t.Error("BranchExists(main) on an unborn branch")
	}
}

func TestDetachedHead(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	first := commit(t, repo, "one")
	commit(t, repo, "two")
	mustGit(t, repo, "checkout", "-q", first)
	want := Head{SHA: first, Detached: true, Subject: "one"}
	if got := mustHead(t, mustOpen(t, repo)); got != want {
		t.Errorf("Head = %+v, want %+v", got, want)
	}
}

func TestLinkedWorktree(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commit(t, repo, "base")
	wt := filepath.Join(tempDir(t), "linked")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", wt)
	sha := commit(t, wt, "on feat")

	r := mustOpen(t, filepath.Join(wt))
	l := r.Layout()
	if p, _ := l.StateParent(); p != repo || l.WorktreeRoot != wt || !l.Linked {
		t.Errorf("layout = %+v (StateParent %s)", l, p)
	}
	want := Head{SHA: sha, Branch: "feat", Subject: "on feat"}
	if got := mustHead(t, r); got != want {
		t.Errorf("Head = %+v, want %+v", got, want)
	}
	if br, det, err := l.CurrentBranch(); br != "feat" || det || err != nil {
		t.Errorf("CurrentBranch = %q, %v, %v", br, det, err)
	}
	if !r.BranchExists("main") || !r.BranchExists("feat") {
		t.Error("BranchExists false for an existing branch")
	}
}

func TestSubmodule(t *testing.T) {
	t.Parallel()
	fx := newLayoutFixture(t)
	subSHA := mustGit(t, fx.sub, "rev-parse", "HEAD")
	superSHA := mustGit(t, fx.main, "rev-parse", "HEAD")
	for _, dir := range []string{fx.sub, filepath.Join(fx.sub, "nested")} {
		h := mustHead(t, mustOpen(t, dir))
		if h.SHA != subSHA || h.SHA == superSHA || h.Subject != "sub: init" {
			t.Errorf("Open(%s, environ.OS()).Head = %+v, want submodule HEAD %s", dir, h, subSHA)
		}
	}
}

// TestExtensions covers Open's own [extensions] check: benign keys open
// (go-git v5.19's root package refused them all), and nothing orc-state does
// rewrites the repository config.
func TestExtensions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, repo string)
	}{
		{"worktreeConfig v1", func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "core.repositoryformatversion", "1")
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
		}},
		{"worktreeConfig v0", func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
		}},
		{"sparse-checkout", func(t *testing.T, repo string) {
			mustGit(t, repo, "sparse-checkout", "set", "dir")
		}},
		{"preciousObjects+worktreeConfig", func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "core.repositoryformatversion", "1")
			mustGit(t, repo, "config", "extensions.preciousObjects", "true")
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo := initRepo(t)
			first := commitFile(t, repo, "dir/a.txt", "a\n", "first")
			second := commitFile(t, repo, "dir/b.txt", "b\n", "second")
			tc.setup(t, repo)
			if !strings.Contains(mustGit(t, repo, "config", "--list", "--local"), "extensions.") {
				t.Fatal("setup did not write an extension")
			}
			cfgPath := filepath.Join(repo, ".git", "config")
			cfgBefore, err := os.ReadFile(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			r := mustOpen(t, repo)
			if got, want := mustHead(t, r), (Head{SHA: second, Branch: "main", Subject: "second"}); got != want {
				t.Errorf("Head = %+v, want %+v", got, want)
			}
			log, err := r.Log(5)
			if err != nil || len(log) != 2 || log[0].SHA != second || log[1].SHA != first {
				t.Errorf("Log = %+v, %v", log, err)
			}
			if full, ok := r.ResolveCommit(first[:9]); !ok || full != first {
				t.Errorf("ResolveCommit = %q, %v", full, ok)
			}
			if _, err := r.Status(context.Background()); err != nil {
				t.Errorf("Status: %v", err)
			}
			snap, err := r.Layout().CommitSnapshot(context.Background(), Snapshot{"x": []byte("x")}, nil, "snap",
				Identity{Name: "o", Email: "o@localhost", When: time.Unix(1_700_000_000, 0)})
			if err != nil {
				t.Fatalf("CommitSnapshot: %v", err)
			}
			if err := r.Layout().UpdateRefs(context.Background(), []RefUpdate{{Name: "refs/orc/test", New: snap}}); err != nil {
				t.Fatalf("UpdateRefs: %v", err)
			}
			if cfgAfter, err := os.ReadFile(cfgPath); err != nil || string(cfgAfter) != string(cfgBefore) {
				t.Errorf("repository config changed:\n%s\nwant\n%s", cfgAfter, cfgBefore)
			}

			// A detached linked worktree of the same repository.
			wt := filepath.Join(tempDir(t), "wt")
			mustGit(t, repo, "worktree", "add", "-q", "--detach", wt, first)
			h := mustHead(t, mustOpen(t, wt))
			if h.SHA != first || !h.Detached {
				t.Errorf("linked worktree Head = %+v, want detached at %s", h, first)
			}
		})
	}
}

// TestNoGitProgram: with git, git answers for every repository format
// (or refuses, in its own words, what it cannot read); without a git
// program, discovery still works (it never runs git) and every git fact is
// an error naming the missing program: nothing is computed in its place.
func TestNoGitProgram(t *testing.T) {
	tests := []struct {
		name    string
		init    []string
		setup   func(t *testing.T, repo string)
		gitSays string // in the error when git itself refuses; "" when git answers
	}{
		{"sha1", nil, nil, ""},
		{"sha256", []string{"--object-format=sha256"}, nil, ""},
		{"sha256+worktreeConfig", []string{"--object-format=sha256"}, func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
		}, ""},
		{"refStorage", nil, func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "core.repositoryformatversion", "1")
			mustGit(t, repo, "config", "extensions.refStorage", "reftable")
		}, "unknown repository extension found: refstorage"},
		{"unknown", nil, func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "core.repositoryformatversion", "1")
			mustGit(t, repo, "config", "extensions.worktreeConfig", "true")
			mustGit(t, repo, "config", "extensions.somethingNew", "true")
		}, "unknown repository extension found: somethingnew"},
		{"partial clone config in v0", nil, func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "extensions.partialClone", "origin")
		}, ""},
		{"format version 2", nil, func(t *testing.T, repo string) {
			mustGit(t, repo, "config", "core.repositoryformatversion", "2")
		}, "Expected git repo version <= 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := initRepo(t, tc.init...)
			one := commit(t, repo, "one")
			if tc.setup != nil {
				tc.setup(t, repo)
			}
			r := mustOpen(t, repo)
			h, err := r.Head()
			r.Close()
			if sha, gitErr := runGit(t, repo, nil, "rev-parse", "HEAD"); gitErr == nil {
				if err != nil || h.SHA != sha {
					t.Errorf("with git: Head = %+v, %v; git says %s", h, err, sha)
				}
			} else if tc.gitSays == "" || err == nil || !strings.Contains(err.Error(), tc.gitSays) {
				t.Errorf("with git: Head = %+v, %v; git fails (%v), want an error saying %q", h, err, gitErr, tc.gitSays)
			}

			t.Setenv("PATH", "")
			r, err = Open(repo, environ.OS())
			if err != nil {
				t.Fatalf("Open without git: %v (discovery runs no git)", err)
			}
			defer r.Close()
			if got := r.Layout().WorktreeRoot; got != repo {
				t.Errorf("without git: WorktreeRoot = %q, want %q", got, repo)
			}
			if r.Layout().RefFiles {
				if b, detached, err := r.Layout().CurrentBranch(); b != "main" || detached || err != nil {
					t.Errorf("without git: CurrentBranch = %q, %v, %v; want main (a hand read)", b, detached, err)
				}
				if sha, ok := r.Layout().BranchSHA("main"); !ok || sha != one {
					t.Errorf("without git: BranchSHA(main) = %q, %v; want %s (a hand read)", sha, ok, one)
				}
			}
			noGit := func(what string, err error) {
				t.Helper()
				if err == nil || !strings.Contains(err.Error(), "no git program on PATH") {
					t.Errorf("without git: %s: err = %v, want \"no git program on PATH\"", what, err)
				}
			}
			h, err = r.Head()
			noGit("Head", err)
			if h.SHA != "" {
				t.Errorf("without git: Head = %+v, want nothing", h)
			}
			st, err := r.Status(context.Background())
			noGit("Status", err)
			if st.Head.SHA != "" || st.Entries != nil {
				t.Errorf("without git: Status = %+v, want nothing", st)
			}
			_, ok, err := r.BranchHead("main")
			noGit("BranchHead", err)
			if ok {
				t.Error("without git: BranchHead(main) ok")
			}
			_, err = r.Branches()
			noGit("Branches", err)
			_, err = r.Merged(one)
			noGit("Merged", err)
			_, err = r.Log(5)
			noGit("Log", err)
			_, _, err = r.CommitsBetween(one, one)
			noGit("CommitsBetween", err)
			if c := r.CheckClaim(one); c.State != ClaimUnknown || !strings.Contains(c.Reason, "no git program on PATH") {
				t.Errorf("without git: CheckClaim = %+v, want unknown (no git program on PATH)", c)
			}
			o := r.ObserveBranch(context.Background(), "main", 3)
			noGit("ObserveBranch head", errors.New(o.HeadErr))
			noGit("ObserveBranch dirty", errors.New(o.Dirty.Reason))
			if o.Dirty.Known || o.Dirty.NotApplicable || o.Head.SHA != "" || o.Log != nil {
				t.Errorf("without git: ObserveBranch = %+v, want every fact unknown", o)
			}
		})
	}
}

func TestBranchExists(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	one := commit(t, repo, "one")
	mustGit(t, repo, "branch", "feature/x")
	mustGit(t, repo, "branch", "packed")
	mustGit(t, repo, "pack-refs", "--all")
	mustGit(t, repo, "branch", "loose")
	r := mustOpen(t, repo)
	tests := map[string]bool{
		"main": true, "feature/x": true, "packed": true, "loose": true,
		"feature": false, "nope": false, "": false, "../../HEAD": false,
		"../config": false, "HEAD": false, "main.lock": false, "a b": false,
	}
	for name, want := range tests {
		if got := r.BranchExists(name); got != want {
			t.Errorf("BranchExists(%q) = %v, want %v", name, got, want)
		}
		if sha, ok, err := r.BranchHead(name); ok != want || err != nil || (ok && sha != one) {
			t.Errorf("BranchHead(%q) = %q, %v, %v", name, sha, ok, err)
		}
	}
}

func TestWorktrees(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commit(t, repo, "base")
	tmp := tempDir(t)
	feat, det, fresh, gone := filepath.Join(tmp, "feat"), filepath.Join(tmp, "det"), filepath.Join(tmp, "fresh"), filepath.Join(tmp, "gone")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", feat)
	mustGit(t, repo, "worktree", "add", "-q", "--detach", det)
	mustGit(t, repo, "worktree", "add", "-q", "--detach", fresh)
	mustGit(t, fresh, "checkout", "-q", "--orphan", "fresh") // unborn branch
	mustGit(t, repo, "worktree", "add", "-q", "-b", "gone", gone)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{repo, feat, det} {
		l := mustOpen(t, from).Layout()
		list, err := l.Worktrees()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, w := range list {
			key := w.Branch
			if w.Detached {
				key = "(detached)"
			}
			if w.Missing {
				key += " missing"
			}
			if w.Current {
				key += " current"
			}
			got[key] = w.Path
		}
		want := map[string]string{"main": repo, "feat": feat, "(detached)": det, "fresh": fresh, "gone missing": gone}
		for k, v := range want {
			if from == v {
				delete(want, k)
				want[k+" current"] = v
			}
		}
		if !equalMaps(got, want) {
			t.Errorf("Worktrees from %s = %v, want %v", from, got, want)
		}
		if w, ok := CheckedOut(list, "gone"); !ok || !w.Missing {
			t.Errorf("CheckedOut(gone) = %+v, %v", w, ok)
		}
		if _, ok := CheckedOut(list, "nope"); ok {
			t.Error("CheckedOut(nope) found a work tree")
		}
	}
}

// TestWorktreesBusy: a work tree rebasing a branch has it checked out, as
// far as git is concerned, though its HEAD is detached.
func TestWorktreesBusy(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commitFile(t, repo, "f", "base\n", "base")
	mustGit(t, repo, "checkout", "-q", "-b", "topic")
	commitFile(t, repo, "f", "topic\n", "topic")
	mustGit(t, repo, "checkout", "-q", "main")
	commitFile(t, repo, "f", "main\n", "main")
	mustGit(t, repo, "checkout", "-q", "topic")
	if _, err := runGit(t, repo, nil, "rebase", "main"); err == nil {
		t.Fatal("rebase succeeded; the test needs a conflict")
	}
	list, err := mustOpen(t, repo).Layout().Worktrees()
	if err != nil {
		t.Fatal(err)
	}
	w, ok := CheckedOut(list, "topic")
	if !ok || !w.Detached || w.Busy != "topic" || !w.Current {
		t.Errorf("CheckedOut(topic) mid-rebase = %+v, %v", w, ok)
	}
}

// TestLeanDeps keeps the package's start-up cost down (every verb pays
// it; docs/performance.md): of
// go-git only the plumbing package (ref-name rules) and its hash package,
// nothing of go-billy or gcfg, and none of the packages whose initialisers
// they brought into every process (gob, openpgp, crc32, go-diff,
// x/sys/cpu, the transports). The standard library's zlib, which reads
// the object files (objfiles.go), is the one compress/ package allowed:
// its initialisers cost 11 µs (GODEBUG=inittrace=1). It also keeps config
// and index writes out.
func TestLeanDeps(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	allowed := map[string]bool{"github.com/go-git/go-git/v5/plumbing": true, "github.com/go-git/go-git/v5/plumbing/hash": true,
		"compress/zlib": true, "compress/flate": true}
	for _, dep := range strings.Fields(string(out)) {
		if allowed[dep] {
			continue
		}
		for _, bad := range []string{"github.com/go-git/", "github.com/ProtonMail/", "github.com/sergi/", "golang.org/x/sys/cpu",
			"encoding/gob", "compress/", "hash/crc32", "net/http", "golang.org/x/crypto/ssh"} {
			if strings.HasPrefix(dep, bad) {
				t.Errorf("internal/gitx depends on %s", dep)
			}
		}
	}
	srcs, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range srcs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{".SetConfig(", ".SetIndex("} {
			if strings.Contains(string(b), call) {
				t.Errorf("%s calls %s: orc-state must not write the repository config or index", f, call)
			}
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestResolveRevision: git resolves the revision to its commit's full id,
// whatever its form; a name of no commit (or of a tree, or of several
// commits) is ErrNoRevision.
func TestResolveRevision(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	one := commit(t, repo, "one")
	two := commit(t, repo, "second message")
	mustGit(t, repo, "tag", "-a", "-m", "release", "v1", one)
	mustGit(t, repo, "tag", "light", two)
	mustGit(t, repo, "tag", "-a", "-m", "on a tag", "v1b", "v1")
	mustGit(t, repo, "branch", "feature/x", one)
	r := mustOpen(t, repo)
	for rev, want := range map[string]string{
		"HEAD": two, "main": two, "HEAD~1": one, "HEAD^": one, "v1": one, "light": two,
		"feature/x": one, "refs/heads/feature/x": one, two[:7]: two, strings.ToUpper(one): one,
		"main~1^{commit}": one, ":/second message": two, ":/one": one, ":/^second": two,
		"v1b": one, "v1^0": one, "main@{0}": two,
	} {
		if got, err := r.ResolveRevision(rev); err != nil || got != want {
			t.Errorf("ResolveRevision(%q) = %q, %v; want %q", rev, got, err, want)
		}
		// git is the oracle: rev-parse names the same commit.
		if oracle := mustGit(t, repo, "rev-parse", "--verify", "--end-of-options", rev); oracle != want && mustGit(t, repo, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}") != want {
			t.Errorf("git rev-parse %q = %q; the table says %q", rev, oracle, want)
		}
	}
	for _, rev := range []string{"nope", "", "HEAD~5", "HEAD^{tree}", "HEAD:x", "main\nHEAD", "-h", "--all", "v2",
		":/no such message", "v1^{tree}", ":/second message^{tree}"} {
		if got, err := r.ResolveRevision(rev); !errors.Is(err, ErrNoRevision) {
			t.Errorf("ResolveRevision(%q) = %q, %v; want ErrNoRevision", rev, got, err)
		}
	}
}
