package gitx

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestObserveBranchLastSaysWhatObserveBranchSays: the variant that stops
// its object reader beside git status gives the same observation (HEAD,
// its subject, the log, the dirty list, every unknown and its reason) in
// every shape, and leaves no git process behind.
func TestObserveBranchLastSaysWhatObserveBranchSays(t *testing.T) {
	t.Parallel()
	shapes := []struct {
		name   string
		branch string
		n      int
		make   func(t *testing.T) string // returns the directory to open
	}{
		{"clean, with log", "main", 3, func(t *testing.T) string {
			repo := initRepo(t)
			for _, m := range []string{"one", "two\n\nbody", "three"} {
				commit(t, repo, m)
			}
			return repo
		}},
		{"dirty, no log", "main", 0, func(t *testing.T) string {
			repo := initRepo(t)
			commitFile(t, repo, "a.txt", "a\n", "first")
			writeFile(t, repo, "a.txt", "changed\n")
			writeFile(t, repo, "new/b.txt", "b\n")
			return repo
		}},
		{"unborn", "main", 3, func(t *testing.T) string { return initRepo(t) }},
		{"detached, the branch checked out nowhere", "main", 2, func(t *testing.T) string {
			repo := initRepo(t)
			commit(t, repo, "one")
			commit(t, repo, "two")
			mustGit(t, repo, "checkout", "-q", "--detach", "HEAD~1")
			return repo
		}},
		{"checked out in another work tree", "feat", 2, func(t *testing.T) string {
			repo := initRepo(t)
			commit(t, repo, "base")
			wt := filepath.Join(tempDir(t), "wt")
			mustGit(t, repo, "worktree", "add", "-q", "-b", "feat", wt)
			commitFile(t, wt, "w.txt", "w\n", "on feat")
			writeFile(t, wt, "dirty.txt", "d\n")
			return repo
		}},
		{"not checked out", "idle", 2, func(t *testing.T) string {
			repo := initRepo(t)
			commit(t, repo, "base")
			mustGit(t, repo, "branch", "idle")
			commit(t, repo, "after")
			return repo
		}},
		{"git refuses the repository", "main", 3, func(t *testing.T) string {
			repo := initRepo(t)
			commit(t, repo, "one")
			mustGit(t, repo, "config", "core.repositoryformatversion", "1")
			mustGit(t, repo, "config", "extensions.futureThing", "x")
			return repo
		}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			dir := sh.make(t)
			ctx := context.Background()
			a := mustOpen(t, dir)
			defer a.Close()
			want := a.ObserveBranch(ctx, sh.branch, sh.n)
			b := mustOpen(t, dir)
			defer b.Close()
			got := b.ObserveBranchLast(ctx, sh.branch, sh.n)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ObserveBranchLast = %+v\nObserveBranch     = %+v", got, want)
			}
			if b.objs != nil {
				t.Errorf("ObserveBranchLast left its object reader open")
			}
			if sh.n > 0 && want.HeadErr == "" && !want.Head.Unborn {
				out := mustGit(t, dir, "log", "-n", strconv.Itoa(sh.n), "--format=%H %s", want.Head.SHA)
				var log []string
				for _, c := range got.Log {
					log = append(log, c.SHA+" "+c.Subject)
				}
				if strings.Join(log, "\n") != strings.TrimSpace(out) {
					t.Errorf("log = %q, git log says %q", log, out)
				}
			}
		})
	}
}
