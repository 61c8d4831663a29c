package gitx

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// statusLines renders entries as sorted "XY path[ <- orig]" lines.
func statusLines(entries []StatusEntry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		s := e.Code + " " + e.Path
		if e.OrigPath != "" {
			s += " <- " + e.OrigPath
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// gitStatusLines is what the git binary says for dir, without refreshing
// the index.
func gitStatusLines(t *testing.T, dir string) []string {
	t.Helper()
	out, err := runGit(t, dir, nil, "--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ParsePorcelainV2([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	return statusLines(entries)
}

// approxLines runs the no-git fallback on dir.
func approxLines(t *testing.T, dir string) []string {
	t.Helper()
	st, err := mustOpen(t, dir).approxStatus(context.Background())
	if err != nil {
		t.Fatalf("approxStatus: %v", err)
	}
	if !st.Approximate || st.TimedOut {
		t.Errorf("approxStatus = %+v, want Approximate", st)
	}
	return statusLines(st.Entries)
}

// matchGit checks the fallback against git on dir, and against want (the
// git answer the scenario was written for, so that a change in git or a
// broken setup does not make both sides agree on nothing).
func matchGit(t *testing.T, dir string, want ...string) {
	t.Helper()
	approx := approxLines(t, dir)
	git := gitStatusLines(t, dir)
	sort.Strings(want)
	if strings.Join(git, "\n") != strings.Join(want, "\n") {
		t.Errorf("git status says\n\t%s\nscenario expects\n\t%s", strings.Join(git, "\n\t"), strings.Join(want, "\n\t"))
	}
	if strings.Join(approx, "\n") != strings.Join(git, "\n") {
		t.Errorf("fallback says\n\t%s\ngit says\n\t%s", strings.Join(approx, "\n\t"), strings.Join(git, "\n\t"))
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestApproxStatusMatchesGit(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	for p, c := range map[string]string{
		"keep.txt": "k\n", "mod.txt": "m\n", "staged.txt": "s\n", "both.txt": "b\n", "del.txt": "d\n",
		"rmd.txt": "r\n", "cached.txt": "c\n", "typechange.txt": "t\n", "exec.sh": "#!/bin/sh\n",
		"logs/tracked.log": "tracked even if ignored\n", "sub/keep.txt": "k\n",
		".gitignore":     "*.log\nbuild/\n!keep.log\n!build/keep.txt\n!important.tmp\n",
		"sub/.gitignore": "local.txt\n",
	} {
		writeFile(t, repo, p, c)
	}
	mustGit(t, repo, "add", "-A")
	mustGit(t, repo, "add", "-f", "logs/tracked.log")
	commit(t, repo, "init")
	writeFile(t, repo, ".git/info/exclude", "# local excludes\nsecret/\n*.tmp\n")

	writeFile(t, repo, "mod.txt", "m2\n")
	writeFile(t, repo, "staged.txt", "s2\n")
	mustGit(t, repo, "add", "staged.txt")
	writeFile(t, repo, "both.txt", "b2\n")
	mustGit(t, repo, "add", "both.txt")
	writeFile(t, repo, "both.txt", "b3\n")
	if err := os.Remove(filepath.Join(repo, "del.txt")); err != nil {
		t.Fatal(err)
	}
	mustGit(t, repo, "rm", "-q", "rmd.txt")
	mustGit(t, repo, "rm", "-q", "--cached", "cached.txt")
	if err := os.Remove(filepath.Join(repo, "typechange.txt")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "keep.txt", filepath.Join(repo, "typechange.txt"))
	if err := os.Chmod(filepath.Join(repo, "exec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, repo, "logs/tracked.log", "changed\n")
	writeFile(t, repo, "new.txt", "n\n")
	mustGit(t, repo, "add", "new.txt")
	writeFile(t, repo, "gone.txt", "g\n")
	mustGit(t, repo, "add", "gone.txt")
	if err := os.Remove(filepath.Join(repo, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, repo, "ita.txt", "intent\n")
	mustGit(t, repo, "add", "-N", "ita.txt")
	symlink(t, "nowhere", filepath.Join(repo, "dangling"))
	writeFile(t, repo, "u.txt", "u\n")
	writeFile(t, repo, "dir/deep/u2 é.txt", "u\n")
	writeFile(t, repo, "x.log", "ignored\n")
	writeFile(t, repo, "keep.log", "negated, shown\n")
	writeFile(t, repo, "build/out.bin", "ignored dir\n")
	writeFile(t, repo, "build/keep.txt", "parent ignored: stays ignored\n")
	writeFile(t, repo, "sub/local.txt", "ignored by nested .gitignore\n")
	writeFile(t, repo, "sub/other.txt", "shown\n")
	writeFile(t, repo, "secret/key", "ignored by info/exclude\n")
	writeFile(t, repo, "b.tmp", "ignored by info/exclude\n")
	writeFile(t, repo, "important.tmp", ".gitignore beats info/exclude\n")
	if err := os.MkdirAll(filepath.Join(repo, "empty", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}

	matchGit(t, repo,
		".M mod.txt", "M. staged.txt", "MM both.txt", ".D del.txt", "D. rmd.txt",
		"D. cached.txt", "?? cached.txt", ".T typechange.txt", ".M exec.sh", ".M logs/tracked.log",
		"A. new.txt", "AD gone.txt", ".A ita.txt", "?? dangling", "?? u.txt", "?? dir/deep/u2 é.txt",
		"?? keep.log", "?? sub/other.txt", "?? important.tmp")
	// From a subdirectory: same repository, same answer.
	if got, want := approxLines(t, filepath.Join(repo, "sub")), approxLines(t, repo); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("from sub/: %v, want %v", got, want)
	}
}

func TestApproxStatusUnborn(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	matchGit(t, repo)
	writeFile(t, repo, ".gitignore", "*.o\n")
	writeFile(t, repo, "a.txt", "a\n")
	writeFile(t, repo, "src/b.txt", "b\n")
	writeFile(t, repo, "src/b.o", "ignored\n")
	writeFile(t, repo, "later.txt", "untracked\n")
	mustGit(t, repo, "add", ".gitignore", "a.txt", "src")
	writeFile(t, repo, "a.txt", "a2\n")
	matchGit(t, repo, "A. .gitignore", "AM a.txt", "A. src/b.txt", "?? later.txt")
}

func TestApproxStatusLinkedWorktree(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	commitFile(t, repo, "a.txt", "a\n", "one")
	writeFile(t, repo, ".git/info/exclude", ".orc/\n")
	wt := filepath.Join(tempDir(t), "wt")
	mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", wt)
	writeFile(t, wt, "a.txt", "changed\n")
	writeFile(t, wt, "new.txt", "n\n")
	writeFile(t, wt, ".orc/state.yaml", "excluded through the common dir\n")
	writeFile(t, wt, "staged.txt", "s\n")
	mustGit(t, wt, "add", "staged.txt")
	matchGit(t, wt, ".M a.txt", "?? new.txt", "A. staged.txt")
	matchGit(t, repo)
}

func TestApproxStatusConflicts(t *testing.T) {
	t.Parallel()
	repo := initRepo(t)
	for p, c := range map[string]string{"c.txt": "base\n", "ud.txt": "base\n", "du.txt": "base\n", "clean.txt": "x\n"} {
		writeFile(t, repo, p, c)
	}
	mustGit(t, repo, "add", "-A")
	commit(t, repo, "base")
	mustGit(t, repo, "checkout", "-q", "-b", "other")
	writeFile(t, repo, "c.txt", "other\n")
	writeFile(t, repo, "du.txt", "other\n")
	writeFile(t, repo, "aa.txt", "other\n")
	mustGit(t, repo, "rm", "-q", "ud.txt")
	mustGit(t, repo, "add", "-A")
	commit(t, repo, "other")
	mustGit(t, repo, "checkout", "-q", "main")
	writeFile(t, repo, "c.txt", "main\n")
	writeFile(t, repo, "ud.txt", "main\n")
	writeFile(t, repo, "aa.txt", "main\n")
	mustGit(t, repo, "rm", "-q", "du.txt")
	mustGit(t, repo, "add", "-A")
	commit(t, repo, "main")
	if _, err := runGit(t, repo, nil, "merge", "-q", "other"); err == nil {
		t.Fatal("merge unexpectedly succeeded")
	}
	matchGit(t, repo, "UU c.txt", "UD ud.txt", "DU du.txt", "AA aa.txt")
}

func TestApproxStatusSubmodule(t *testing.T) {
	t.Parallel()
	fx := newLayoutFixture(t)
	matchGit(t, fx.main)
	matchGit(t, fx.linked) // submodule not checked out there
	commitFile(t, fx.sub, "lib.txt", "lib 2\n", "sub: moved")
	matchGit(t, fx.main, ".M mod")
	matchGit(t, fx.sub)
}

// TestStatusFallbackNoGit is the public path: no git binary on PATH.
func TestStatusFallbackNoGit(t *testing.T) {
	repo := initRepo(t)
	commitFile(t, repo, "a.txt", "a\n", "one")
	writeFile(t, repo, ".git/info/exclude", "*.tmp\n")
	writeFile(t, repo, "a.txt", "changed\n")
	writeFile(t, repo, "x.tmp", "ignored\n")
	writeFile(t, repo, "n.txt", "new\n")
	want := gitStatusLines(t, repo)
	t.Setenv("PATH", "")
	r := mustOpen(t, repo)
	st, err := r.Status(context.Background())
	if err != nil || !st.Approximate {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if got := statusLines(st.Entries); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Status = %v, git says %v", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, err := r.approxStatus(ctx); err != nil || !st.TimedOut {
		t.Errorf("approxStatus(cancelled) = %+v, %v; want TimedOut", st, err)
	}
}
