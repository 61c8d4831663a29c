package gitx

import (
	"errors"
	"os"
	"path/filepath"
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

func TestDiscover(t *testing.T) {
	t.Parallel()
	fx := newLayoutFixture(t)
	mainGit := filepath.Join(fx.main, ".git")
	tests := []struct {
		name                              string
		dir                               string
		root, gitDir, commonDir, mainRoot string
		wantBranch                        string
	}{
		{"main root", fx.main, fx.main, mainGit, mainGit, fx.main, "main"},
		{"main subdir", filepath.Join(fx.main, "dir", "deep"), fx.main, mainGit, mainGit, fx.main, "main"},
		{"linked", fx.linked, fx.linked, filepath.Join(mainGit, "worktrees", "wt-feat"), mainGit, fx.main, "feat"},
		{"linked subdir", filepath.Join(fx.linked, "dir"), fx.linked, filepath.Join(mainGit, "worktrees", "wt-feat"), mainGit, fx.main, "feat"},
		{"submodule", fx.sub, fx.sub, filepath.Join(mainGit, "modules", "mod"), filepath.Join(mainGit, "modules", "mod"), fx.sub, "main"},
		{"submodule subdir", filepath.Join(fx.sub, "nested"), fx.sub, filepath.Join(mainGit, "modules", "mod"), filepath.Join(mainGit, "modules", "mod"), fx.sub, "main"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Discover(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			want := Layout{WorktreeRoot: tc.root, GitDir: tc.gitDir, CommonDir: tc.commonDir}
			if l != want {
				t.Fatalf("Discover(%s) = %+v, want %+v", tc.dir, l, want)
			}
			if got := l.MainRoot(); got != tc.mainRoot {
				t.Errorf("MainRoot = %s, want %s", got, tc.mainRoot)
			}
			br, detached, err := l.CurrentBranch()
			if err != nil {
				t.Fatal(err)
			}
			if br != tc.wantBranch || detached != (tc.wantBranch == "") {
				t.Errorf("CurrentBranch = %q, %v; want %q", br, detached, tc.wantBranch)
			}
		})
	}
}

func TestDiscoverRelative(t *testing.T) {
	repo := initRepo(t)
	writeFile(t, repo, "sub/x", "x")
	t.Chdir(filepath.Join(repo, "sub"))
	l, err := Discover(".")
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
	if l, err := Discover(filepath.Dir(dir)); err == nil {
		t.Skipf("temp dir is inside a git repository (%s)", l.WorktreeRoot)
	}
	_, err := Discover(dir)
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Discover = %v, want ErrNotRepo", err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Open = %v, want ErrNotRepo", err)
	}
}

func TestDiscoverBadGitFile(t *testing.T) {
	t.Parallel()
	dir := tempDir(t)
	for _, content := range []string{"nonsense\n", "gitdir: \n", "gitdir: missing-dir\n"} {
		if err := os.WriteFile(filepath.Join(dir, ".git"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Discover(dir); err == nil || errors.Is(err, ErrNotRepo) {
			t.Errorf(".git = %q: Discover err = %v, want a gitfile error", content, err)
		}
	}
}

func TestCurrentBranchDetachedAndUnborn(t *testing.T) {
	t.Parallel()
	unborn := initRepo(t)
	l, err := Discover(unborn)
	if err != nil {
		t.Fatal(err)
	}
	if br, det, err := l.CurrentBranch(); br != "main" || det || err != nil {
		t.Errorf("unborn: CurrentBranch = %q, %v, %v", br, det, err)
	}

	repo := initRepo(t)
	commit(t, repo, "one")
	mustGit(t, repo, "checkout", "-q", "--detach")
	l, err = Discover(repo)
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
		l, err := Discover(deep)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := l.CurrentBranch(); err != nil {
			b.Fatal(err)
		}
	}
}
