package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
)

type wantEntry struct{ code, orig string }

func entryMap(t *testing.T, entries []StatusEntry) map[string]wantEntry {
	t.Helper()
	m := map[string]wantEntry{}
	for _, e := range entries {
		if _, dup := m[e.Path]; dup {
			t.Errorf("duplicate entry for %q", e.Path)
		}
		m[e.Path] = wantEntry{e.Code, e.OrigPath}
	}
	return m
}

func checkEntries(t *testing.T, got []StatusEntry, want map[string]wantEntry) {
	t.Helper()
	gm := entryMap(t, got)
	for p, w := range want {
		if g, ok := gm[p]; !ok || g != w {
			t.Errorf("entry %q = %+v (present %v), want %+v", p, g, ok, w)
		}
	}
	for p, g := range gm {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected entry %q %+v", p, g)
		}
	}
}

func mustStatus(t *testing.T, r *Repo) Status {
	t.Helper()
	st, err := r.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if st.TimedOut {
		t.Fatal("Status timed out")
	}
	return st
}

// excludeOrc hides .orc/ through info/exclude, as orc-state does.
func excludeOrc(t *testing.T, repo string) {
	t.Helper()
	writeFile(t, repo, ".git/info/exclude", "# local\n.orc/\n")
	writeFile(t, repo, ".orc/state.yaml", "phase: 1\n")
}

func TestStatusEntries(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	files := map[string]string{
		"mod.txt": "m\n", "staged.txt": "s\n", "old name.txt": "rename me, please: long enough\n",
		"é.txt": "e\n", "日本/語.txt": "j\n", "both.txt": "b\n", "del.txt": "d\n", ".gitignore": "build/\n",
	}
	for p, c := range files {
		writeFile(t, repo, p, c)
	}
	mustGit(t, repo, "add", "-A")
	commit(t, repo, "init")
	excludeOrc(t, repo)
	writeFile(t, repo, "build/out.bin", "x")
	r := mustOpen(t, repo)
	if st := mustStatus(t, r); len(st.Entries) != 0 {
		t.Fatalf("clean repo: Status = %+v", st)
	}

	writeFile(t, repo, "mod.txt", "m2\n")
	writeFile(t, repo, "staged.txt", "s2\n")
	mustGit(t, repo, "add", "staged.txt")
	mustGit(t, repo, "mv", "old name.txt", "new name.txt")
	writeFile(t, repo, "é.txt", "e2\n")
	writeFile(t, repo, "日本/新 file.txt", "n\n")
	writeFile(t, repo, "both.txt", "b2\n")
	mustGit(t, repo, "add", "both.txt")
	writeFile(t, repo, "both.txt", "b3\n")
	if err := os.Remove(filepath.Join(repo, "del.txt")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, repo, "add me.txt", "a\n")
	mustGit(t, repo, "add", "add me.txt")

	st := mustStatus(t, mustOpen(t, filepath.Join(repo, "日本")))
	checkEntries(t, st.Entries, map[string]wantEntry{
		"mod.txt":       {".M", ""},
		"staged.txt":    {"M.", ""},
		"new name.txt":  {"R.", "old name.txt"},
		"é.txt":         {".M", ""},
		"日本/新 file.txt": {"??", ""},
		"both.txt":      {"MM", ""},
		"del.txt":       {".D", ""},
		"add me.txt":    {"A.", ""},
	})
}

func TestStatusConflict(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commitFile(t, repo, "c.txt", "base\n", "base")
	mustGit(t, repo, "checkout", "-q", "-b", "other")
	commitFile(t, repo, "c.txt", "other\n", "other")
	mustGit(t, repo, "checkout", "-q", "main")
	commitFile(t, repo, "c.txt", "main\n", "main")
	if _, err := runGit(t, repo, nil, "merge", "-q", "other"); err == nil {
		t.Fatal("merge unexpectedly succeeded")
	}
	st := mustStatus(t, mustOpen(t, repo))
	checkEntries(t, st.Entries, map[string]wantEntry{"c.txt": {"UU", ""}})
}

func TestStatusUnbornAndLinked(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	writeFile(t, repo, "new.txt", "n\n")
	checkEntries(t, mustStatus(t, mustOpen(t, repo)).Entries, map[string]wantEntry{"new.txt": {"??", ""}})

	mustGit(t, repo, "add", "new.txt")
	commit(t, repo, "one")
	wt := filepath.Join(tempDir(t), "wt")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", wt)
	writeFile(t, wt, "new.txt", "changed\n")
	checkEntries(t, mustStatus(t, mustOpen(t, wt)).Entries, map[string]wantEntry{"new.txt": {".M", ""}})
	checkEntries(t, mustStatus(t, mustOpen(t, repo)).Entries, nil)
}

func TestStatusTimeout(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	r := mustOpen(t, repo)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tiny, cancel2 := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel2()
	for name, ctx := range map[string]context.Context{"cancelled": cancelled, "1ns": tiny} {
		st, err := r.Status(ctx)
		if err != nil || !st.TimedOut || len(st.Entries) != 0 {
			t.Errorf("%s: Status = %+v, %v; want TimedOut", name, st, err)
		}
	}
}

// fakeGit puts a shell script named git first on PATH.
// openFakeGit opens repo with a PATH whose only git is script.
func openFakeGit(t *testing.T, repo, script string) *Repo {
	t.Helper()
	bin := tempDir(t)
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Open(repo, environ.OS().With("PATH="+bin))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestStatusSlowGitIsKilled(t *testing.T) {
	repo := initRepo(t)
	r := openFakeGit(t, repo, "/bin/sleep 30\n")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	st, err := r.Status(ctx)
	if err != nil || !st.TimedOut {
		t.Fatalf("Status = %+v, %v; want TimedOut", st, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Status took %v after the timeout", d)
	}
}

func TestStatusGitErrors(t *testing.T) {
	repo := initRepo(t)

	t.Run("dubious ownership", func(t *testing.T) {
		rf := openFakeGit(t, repo, "echo \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\n"+
			"echo 'To add an exception for this directory, call:' >&2\nexit 128\n")
		_, err := rf.Status(context.Background())
		if err == nil || !strings.Contains(err.Error(), "fatal: detected dubious ownership in repository at '"+repo+"'") ||
			strings.Contains(err.Error(), "exception") {
			t.Errorf("Status error = %v", err)
		}
	})
	t.Run("missing worktree", func(t *testing.T) {
		gone := initRepo(t)
		rg := mustOpen(t, gone)
		if err := os.RemoveAll(gone); err != nil {
			t.Fatal(err)
		}
		_, err := rg.Status(context.Background())
		if err == nil || !strings.Contains(err.Error(), "cannot change to") {
			t.Errorf("Status error = %v, want git's 'cannot change to' message", err)
		}
	})
}

// TestStatusHonoursEnv runs Status with GIT_DIR and GIT_WORK_TREE naming
// another repository, as a git hook of that repository would: git itself
// would look there, and so does orc-state.
func TestStatusHonoursEnv(t *testing.T) {
	other := initRepo(t)
	writeFile(t, other, "other-untracked.txt", "o\n")
	repo := initRepo(t)
	commitFile(t, repo, "a.txt", "a\n", "one")
	writeFile(t, repo, "a.txt", "changed\n")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	r := mustOpen(t, repo)
	if r.Layout().WorktreeRoot != other {
		t.Fatalf("WorktreeRoot = %s, want %s", r.Layout().WorktreeRoot, other)
	}
	checkEntries(t, mustStatus(t, r).Entries, map[string]wantEntry{"other-untracked.txt": {"??", ""}})
}

func TestCleanEnv(t *testing.T) {
	t.Parallel()
	in := []string{"PATH=/bin", "GIT_DIR=/x", "GIT_INDEX_FILE=/i", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=a",
		"GIT_CONFIG_VALUE_0=b", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_DIRX=keep", "HOME=/h"}
	got := strings.Join(CleanEnv(in), " ")
	if want := "PATH=/bin GIT_CONFIG_GLOBAL=/dev/null GIT_DIRX=keep HOME=/h"; got != want {
		t.Errorf("CleanEnv = %q, want %q", got, want)
	}
}
