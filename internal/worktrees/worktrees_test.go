package worktrees

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// place is a state dir outside any repository holding sessions a and b
// (on branches a and b, each with a ledger of three slices), and the root
// under which the tests make linked worktrees.
type place struct {
	root string
	d    *state.Dir
	now  time.Time // the time claims are judged by, and recorded
}

func newPlace(t *testing.T) *place {
	t.Helper()
	p := &place{root: t.TempDir(), now: t0}
	seeding := statetest.Seeding{Clock: func() time.Time { return p.now }, Ledger: `{"slices":[{"id":1},{"id":2},{"id":3}]}`}
	p.d = seeding.Seed(t, p.root, statetest.Entry("a", p.now), statetest.Entry("b", p.now))
	return p
}

// opts are the options of a transaction of verb.
func opts(verb string) state.Options {
	return state.Options{Verb: verb, Actor: "cli", LockTimeout: time.Second}
}

// update runs fn in one transaction of verb, failing the test on error.
func (p *place) update(t *testing.T, verb string, fn func(tx *state.Tx) error) {
	t.Helper()
	if err := p.d.Update(context.Background(), opts(verb), fn); err != nil {
		t.Fatal(err)
	}
}

// run is the Run of a verb here, with $ORC_SESSION env (or none).
func (p *place) run(env string) Run {
	return Run{
		Where: selection.Where{
			Getenv: func(key string) string {
				if key == "ORC_SESSION" {
					return env
				}
				return ""
			},
			Dir:     func() (*state.Dir, error) { return p.d, nil },
			Binding: func() (*binding.Binding, error) { return nil, nil },
		},
		Options: func() (state.Options, error) { return opts("worktree join"), nil },
		Now:     func() time.Time { return p.now },
	}
}

// tree is the layout of a linked worktree named name of the repository
// under root/repo, with HEAD head ("ref: refs/heads/B" or a sha), made as
// git makes one (admin dir, .git file) on first use; refs are files, so
// the worktrees are listed by hand.
func (p *place) tree(t *testing.T, name, head string) gitx.Layout {
	t.Helper()
	main := p.main(t)
	gitDir := filepath.Join(main.CommonDir, "worktrees", name)
	root := filepath.Join(p.root, name)
	write(t, filepath.Join(gitDir, "HEAD"), head+"\n")
	write(t, filepath.Join(gitDir, "commondir"), "../..\n")
	write(t, filepath.Join(gitDir, "gitdir"), filepath.Join(root, ".git")+"\n")
	write(t, filepath.Join(root, ".git"), "gitdir: "+gitDir+"\n")
	return gitx.Layout{Place: root, WorktreeRoot: root, GitDir: gitDir, CommonDir: main.CommonDir, Linked: true,
		MainWorktree: main.MainWorktree, RefFiles: true}
}

// main is the layout of the repository's main worktree, root/repo, on
// branch main.
func (p *place) main(t *testing.T) gitx.Layout {
	t.Helper()
	root := filepath.Join(p.root, "repo")
	common := filepath.Join(root, ".git")
	write(t, filepath.Join(common, "HEAD"), "ref: refs/heads/main\n")
	return gitx.Layout{Place: root, WorktreeRoot: root, GitDir: common, CommonDir: common, MainWorktree: root, RefFiles: true}
}

// write writes text to path, with its folders, unless path exists: a
// worktree made again would be another one (binding.MadeAt).
func write(t *testing.T, path, text string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// bindings are the bindings on disk, one "worktree session agent" line
// each, the worktree by its folder name.
func (p *place) bindings(t *testing.T) string {
	t.Helper()
	f, err := selection.ReadBindings(p.d)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, b := range f.Worktrees {
		lines = append(lines, strings.TrimSpace(filepath.Base(b.Path)+" "+b.Session+" "+b.Agent))
	}
	return strings.Join(lines, "\n")
}

// files is every file of the state dir with its content (the lock and
// the transaction log aside).
func (p *place) files(t *testing.T) string {
	t.Helper()
	return statetest.Files(t, p.d.Path)
}

// lastEntry is the last journal line of session id.
func (p *place) lastEntry(t *testing.T, id string) journal.Entry {
	t.Helper()
	last, ok, err := journal.Last(p.d.File(id, journal.FileName))
	if err != nil || !ok {
		t.Fatalf("journal of %s: %v (ok %v)", id, err, ok)
	}
	return last
}
