package gitx

import (
	"github.com/orc-state/orc-state/internal/environ"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// layoutFixture is a repository with a subdir, a linked worktree on branch
// feat and a submodule "mod".
type layoutFixture struct {
	main, linked, sub string
}

func newLayoutFixture(t *testing.T) layoutFixture {
	t.Helper()
	subSrc := initRepo(t)
	commitFile(t, subSrc, "lib.txt", "lib\n", "sub: init")

	main := initRepo(t)
	commitFile(t, main, "dir/deep/a.txt", "a\n", "main: init")
	mustGit(t, main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", subSrc, "mod")
	commit(t, main, "add submodule")
	if err := os.MkdirAll(filepath.Join(main, "mod", "nested"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(tempDir(t), "wt-feat")
	mustGit(t, main, "worktree", "add", "-q", "-b", "feat", linked)
	return layoutFixture{main: main, linked: linked, sub: filepath.Join(main, "mod")}
}

// oracle is what git itself says about a place: rev-parse's git dir,
// common dir and top level ("" when git says there is no work tree), and
// the first entry of git worktree list.
type oracle struct{ gitDir, commonDir, top, firstWorktree string }

func askGit(t *testing.T, dir string, env []string) oracle {
	t.Helper()
	var o oracle
	out, err := runGit(t, dir, env, "rev-parse", "--absolute-git-dir", "--git-common-dir")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	o.gitDir, o.commonDir = lines[0], lines[1]
	if !filepath.IsAbs(o.commonDir) {
		o.commonDir = filepath.Join(dir, o.commonDir)
	}
	o.commonDir = filepath.Clean(o.commonDir)
	if top, err := runGit(t, dir, env, "rev-parse", "--show-toplevel"); err == nil {
		o.top = top
	}
	if list, err := runGit(t, dir, env, "worktree", "list", "--porcelain"); err == nil {
		first, _, _ := strings.Cut(list, "\n")
		o.firstWorktree = strings.TrimPrefix(first, "worktree ")
	}
	return o
}

// TestDiscover compares Discover with git's own answer in every shape:
// rev-parse for the git dir, common dir and work tree, and git worktree
// list for where the shared state dir goes (StateParent), except for a
// --separate-git-dir repository, where git names its git dir and orc-state
// its work tree.
func TestDiscover(t *testing.T) {
	t.Parallel()
	fx := newLayoutFixture(t)
	tmp := tempDir(t)
	bare := filepath.Join(tmp, "bare.git")
	mustGit(t, tmp, "clone", "-q", "--bare", fx.main, bare)
	bareWT := filepath.Join(tmp, "bare-wt")
	mustGit(t, bare, "worktree", "add", "-q", "-b", "bw", bareWT)
	sepWT, sepGit := filepath.Join(tmp, "sep"), filepath.Join(tmp, "sep-gitdir")
	mustGit(t, tmp, "init", "-q", "-b", "main", "--separate-git-dir", sepGit, sepWT)
	commit(t, sepWT, "sep")
	sepLinked := filepath.Join(tmp, "sep-linked")
	mustGit(t, sepWT, "worktree", "add", "-q", "-b", "sl", sepLinked)
	elsewhere := filepath.Join(tmp, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	mainGit := filepath.Join(fx.main, ".git")

	tests := []struct {
		name        string
		dir         string
		env         []string
		stateParent string // "" when it cannot be known
		wantBranch  string
	}{
		{"main root", fx.main, nil, fx.main, "main"},
		{"main subdir", filepath.Join(fx.main, "dir", "deep"), nil, fx.main, "main"},
		{"inside .git", filepath.Join(mainGit, "refs"), nil, fx.main, "main"},
		{"linked", fx.linked, nil, fx.main, "feat"},
		{"linked subdir", filepath.Join(fx.linked, "dir"), nil, fx.main, "feat"},
		{"submodule", fx.sub, nil, fx.sub, "main"},
		{"submodule subdir", filepath.Join(fx.sub, "nested"), nil, fx.sub, "main"},
		{"bare", bare, nil, bare, "main"},
		{"bare subdir", filepath.Join(bare, "refs"), nil, bare, "main"},
		{"bare worktree", bareWT, nil, bare, "bw"},
		{"separate git dir", sepWT, nil, sepWT, "main"},
		{"separate git dir, linked", sepLinked, nil, "", "sl"},
		{"GIT_DIR and GIT_WORK_TREE", elsewhere, []string{"GIT_DIR=" + mainGit, "GIT_WORK_TREE=" + fx.main}, fx.main, "main"},
		{"GIT_DIR relative", fx.main, []string{"GIT_DIR=.git"}, fx.main, "main"},
		{"GIT_DIR alone: the place is the top", elsewhere, []string{"GIT_DIR=" + mainGit}, fx.main, "main"},
		{"GIT_DIR of a linked worktree", elsewhere, []string{"GIT_DIR=" + filepath.Join(mainGit, "worktrees", "wt-feat"), "GIT_WORK_TREE=" + fx.linked}, fx.main, "feat"},
		{"GIT_WORK_TREE alone", filepath.Join(fx.main, "dir"), []string{"GIT_WORK_TREE=" + fx.main}, fx.main, "main"},
		{"GIT_DIR of a separate git dir", elsewhere, []string{"GIT_DIR=" + sepGit, "GIT_WORK_TREE=" + sepWT}, sepWT, "main"},
		{"GIT_DIR of a bare repository", elsewhere, []string{"GIT_DIR=" + bare}, bare, "main"},
		{"GIT_COMMON_DIR", fx.linked, []string{"GIT_DIR=" + filepath.Join(mainGit, "worktrees", "wt-feat"), "GIT_COMMON_DIR=" + mainGit, "GIT_WORK_TREE=" + fx.linked}, fx.main, "feat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := askGit(t, tc.dir, tc.env)
			l, err := Discover(tc.dir, environ.List(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if l.GitDir != want.gitDir || l.CommonDir != want.commonDir || l.WorktreeRoot != want.top {
				t.Errorf("Discover = git dir %s, common %s, top %q; git says %s, %s, %q",
					l.GitDir, l.CommonDir, l.WorktreeRoot, want.gitDir, want.commonDir, want.top)
			}
			parent, err := l.StateParent()
			if (err != nil) != (tc.stateParent == "") || parent != tc.stateParent {
				t.Errorf("StateParent = %q, %v; want %q", parent, err, tc.stateParent)
			}
			// git worktree list names the git dir of a separate git dir
			// and of a submodule as the main worktree; orc-state takes
			// its work tree.
			if !strings.Contains(tc.name, "separate") && !strings.Contains(tc.name, "submodule") && tc.stateParent != "" {
				gw := strings.TrimSuffix(want.firstWorktree, "/.git")
				if gw != tc.stateParent {
					t.Errorf("git worktree list names %s first; the test expects %s", gw, tc.stateParent)
				}
			}
			br, detached, err := l.CurrentBranch()
			if err != nil || br != tc.wantBranch || detached {
				t.Errorf("CurrentBranch = %q, %v, %v; want %q", br, detached, err, tc.wantBranch)
			}
		})
	}
}

// TestSeparateGitDirHint: once orc-state has written the main work tree's
// hint, a linked worktree of a --separate-git-dir repository finds it; a
// hint that no longer holds is ignored.
func TestSeparateGitDirHint(t *testing.T) {
	t.Parallel()
	tmp := tempDir(t)
	wt, gd, linked := filepath.Join(tmp, "wt"), filepath.Join(tmp, "gd"), filepath.Join(tmp, "linked")
	mustGit(t, tmp, "init", "-q", "-b", "main", "--separate-git-dir", gd, wt)
	commit(t, wt, "one")
	mustGit(t, wt, "worktree", "add", "-q", "-b", "l", linked)
	main, err := Discover(wt, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	line, needed := main.MainWorktreeHint()
	if !needed || line != hintPrefix+wt {
		t.Fatalf("MainWorktreeHint = %q, %v", line, needed)
	}
	if _, needed := (Layout{}).MainWorktreeHint(); needed {
		t.Error("an empty layout needs a hint")
	}
	writeFile(t, gd, "info/exclude", "# git's own comment\n"+line+"\n/.orc/\n")
	l, err := Discover(linked, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if p, err := l.StateParent(); p != wt || err != nil {
		t.Errorf("StateParent from the linked worktree = %q, %v; want %s", p, err, wt)
	}
	// A hint naming a directory whose .git leads elsewhere is not trusted.
	other := initRepo(t)
	writeFile(t, gd, "info/exclude", hintPrefix+other+"\n")
	l, _ = Discover(linked, environ.OS())
	if p, err := l.StateParent(); err == nil {
		t.Errorf("StateParent = %q with a hint naming another repository", p)
	}
}

func TestDiscoverRelative(t *testing.T) {
	repo := initRepo(t)
	writeFile(t, repo, "sub/x", "x")
	t.Chdir(filepath.Join(repo, "sub"))
	l, err := Discover(".", environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if l.WorktreeRoot != repo {
		t.Fatalf("WorktreeRoot = %s, want %s", l.WorktreeRoot, repo)
	}
}

func TestDiscoverNotRepo(t *testing.T) {
	t.Parallel()
	dir := tempDir(t)
	if l, err := Discover(filepath.Dir(dir), environ.OS()); err == nil {
		t.Skipf("temp dir is inside a git repository (%s)", l.WorktreeRoot)
	}
	_, err := Discover(dir, environ.OS())
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Discover = %v, want ErrNotRepo", err)
	}
	if _, err := Open(dir, environ.OS()); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Open = %v, want ErrNotRepo", err)
	}
}

func TestDiscoverBadGitFile(t *testing.T) {
	t.Parallel()
	dir := tempDir(t)
	for _, content := range []string{"nonsense\n", "gitdir: \n", "gitdir: missing-dir\n", "gitdir:" + dir + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, ".git"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Discover(dir, environ.OS()); err == nil || errors.Is(err, ErrNotRepo) {
			t.Errorf(".git = %q: Discover err = %v, want a gitfile error", content, err)
		}
	}
}

func TestCurrentBranchDetachedAndUnborn(t *testing.T) {
	t.Parallel()
	unborn := initRepo(t)
	l, err := Discover(unborn, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if br, det, err := l.CurrentBranch(); br != "main" || det || err != nil {
		t.Errorf("unborn: CurrentBranch = %q, %v, %v", br, det, err)
	}

	repo := initRepo(t)
	commit(t, repo, "one")
	mustGit(t, repo, "checkout", "-q", "--detach")
	l, err = Discover(repo, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	if br, det, err := l.CurrentBranch(); br != "" || !det || err != nil {
		t.Errorf("detached: CurrentBranch = %q, %v, %v", br, det, err)
	}
}

func TestParseHEAD(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		branch   string
		detached bool
		wantErr  bool
	}{
		{"ref: refs/heads/main\n", "main", false, false},
		{"ref: refs/heads/feature/x\r\n", "feature/x", false, false},
		{"ref:refs/heads/tight", "tight", false, false},
		{"0123456789abcdef0123456789abcdef01234567\n", "", true, false},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", "", true, false},
		{"ref: refs/tags/v1\n", "", false, true},
		{"ref: refs/heads/\n", "", false, true},
		{"", "", false, true},
		{"garbage", "", false, true},
		{"0123456789abcdef0123456789abcdef0123456z", "", false, true},
	}
	for _, tc := range tests {
		br, det, err := parseHEAD([]byte(tc.in))
		if br != tc.branch || det != tc.detached || (err != nil) != tc.wantErr {
			t.Errorf("parseHEAD(%q) = %q, %v, %v", tc.in, br, det, err)
		}
	}
}

func BenchmarkDiscoverCurrentBranch(b *testing.B) {
	repo := initRepo(b)
	commit(b, repo, "one")
	deep := filepath.Join(repo, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		l, err := Discover(deep, environ.OS())
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := l.CurrentBranch(); err != nil {
			b.Fatal(err)
		}
	}
}
