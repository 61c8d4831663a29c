package archive

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

// A real repository: archives made in the same second get -2, -3... (the
// first name taken by fast-import's refusal, the next ones found by
// listing), list and load give back what was kept, and abandoned ones are
// gone.
func TestPrepareInRepository(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	env := statetest.Repo(t, dir, "--unborn")
	l, err := gitx.Discover(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".orc"), 0o755); err != nil {
		t.Fatal(err)
	}
	store := Open(&state.Dir{Path: filepath.Join(dir, ".orc"), Git: &l})
	if !store.InGit() {
		t.Fatal("the repository's own state dir keeps its archives in git")
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	store.Dir.Clock = func() time.Time { return at }

	var made []*Item
	for i, text := range []string{"one", "two", "three"} {
		it := NewItem("feat-x", KindDigest, "digest write", "cli", registry.Stamp(at), Snapshot{EntryFile: []byte("{}"), "files/checkpoint.md": []byte(text)})
		if err := store.Prepare([]*Item{it}); err != nil {
			t.Fatalf("archive %d: %v", i+1, err)
		}
		made = append(made, it)
	}
	want := []string{"20260102T030405Z", "20260102T030405Z-2", "20260102T030405Z-3"}
	all, err := store.List("feat-x")
	if err != nil || len(all) != 3 {
		t.Fatalf("List: %v %+v", err, all)
	}
	for i, a := range all {
		if a.Time != want[i] || a.Name != made[i].Name || a.Kind != KindDigest || a.Verb != "digest write" || a.Size != int64(2+len([]string{"one", "two", "three"}[i])) {
			t.Errorf("archive %d: %+v (made %s)", i, a, made[i].Name)
		}
		snap, err := store.Load(a)
		if err != nil || !snap.Equal(made[i].Snap) {
			t.Errorf("Load(%s) = %v, %v", a.Name, snap, err)
		}
	}
	// Under the lock: the content archived names the ref; content that
	// changed since is archived in the transaction, as a folder archive.
	changed := Snapshot{EntryFile: []byte("{}"), "files/checkpoint.md": []byte("four")}
	var same, moved string
	d := store.Dir
	err = d.Update(context.Background(), state.Options{Verb: "digest write", Actor: "cli", LockTimeout: time.Second}, func(tx *state.Tx) error {
		store.Begin()
		same = store.Keep(tx, made[1], made[1].Snap)
		moved = store.Keep(tx, made[2], changed)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if same != made[1].Name || !made[1].Used || made[2].Used || moved != Folder+"/feat-x/20260102T030405Z" {
		t.Fatalf("Keep: %q (used %v), %q (used %v)", same, made[1].Used, moved, made[2].Used)
	}
	// The ones the transaction did not use are dropped; the folder archive
	// is listed beside the ref, and loads.
	store.Abandon(made)
	all, err = store.List("")
	if err != nil || len(all) != 2 || all[0].Name != made[1].Name && all[1].Name != made[1].Name {
		t.Fatalf("after Abandon: %v %+v", err, all)
	}
	for _, a := range all {
		if a.Name == moved {
			snap, err := store.Load(a)
			if err != nil || !snap.Equal(changed) || a.Commit != "" || a.Size != 6 {
				t.Errorf("the folder archive: %+v, %v, %v", a, snap, err)
			}
		}
	}
}

// The same content archived twice in one second is one commit under one
// name (the second Prepare finds its ref made already), and a name held
// in another case (a file system that ignores case, or lowers names, has
// only one file for both) is taken: the next archive gets -2.
func TestPrepareNameCollisions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	env := statetest.Repo(t, dir, "--unborn")
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	l, err := gitx.Discover(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".orc"), 0o755); err != nil {
		t.Fatal(err)
	}
	store := Open(&state.Dir{Path: filepath.Join(dir, ".orc"), Git: &l})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	store.Dir.Clock = func() time.Time { return at }
	item := func(session, text string) *Item {
		return NewItem(session, KindDigest, "digest write", "cli", registry.Stamp(at), Snapshot{EntryFile: []byte("{}"), "files/checkpoint.md": []byte(text)})
	}

	first, again := item("feat-x", "same"), item("feat-x", "same")
	for _, it := range []*Item{first, again} {
		if err := store.Prepare([]*Item{it}); err != nil {
			t.Fatalf("Prepare: %v", err)
		}
	}
	if again.Name != first.Name || again.Commit != first.Commit || !again.refCreated {
		t.Errorf("the same content again: %s %s (created %v), first %s %s", again.Name, again.Commit, again.refCreated, first.Name, first.Commit)
	}

	// A name held in another case: the listing Prepare falls back to
	// folds case, so on a file system where the two are one file the next
	// free name is taken (there fast-import refuses the first; this one,
	// case-sensitive, creates it: the NTFS scenario of
	// TestWindowsLikeFileSystem covers the fallback end to end).
	git("update-ref", RefPrefix+"feat-y/20260102t030405z", first.Commit)
	taken, err := store.takenNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if taken[strings.ToLower(RefPrefix+"feat-y/20260102T030405Z")] != first.Commit {
		t.Errorf("takenNames does not fold case: %v", taken)
	}
	next := item("feat-y", "next")
	if err := store.Prepare([]*Item{next}); err != nil || !next.refCreated {
		t.Fatalf("Prepare beside a lowered name: %v", err)
	}
}

// Writers archiving in the same second at once never share a name and
// never fail: each name is created only if absent, and a writer that lost
// one tries the next (20 at once, each of different content).
func TestPrepareConcurrentNamesAreUnique(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	env := statetest.Repo(t, dir, "--unborn")
	l, err := gitx.Discover(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".orc"), 0o755); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const writers = 20
	items := make([]*Item, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			store := Open(&state.Dir{Path: filepath.Join(dir, ".orc"), Git: &l, Clock: func() time.Time { return at }})
			items[i] = NewItem("feat-x", KindSession, "session remove", "cli", registry.Stamp(at), Snapshot{EntryFile: []byte("{}"), "files/progress.md": []byte(strconv.Itoa(i))})
			errs[i] = store.Prepare([]*Item{items[i]})
		}()
	}
	wg.Wait()
	names := map[string]bool{}
	for i, it := range items {
		if errs[i] != nil {
			t.Errorf("writer %d: %v", i, errs[i])
			continue
		}
		if names[it.Name] {
			t.Errorf("two writers archived as %s", it.Name)
		}
		names[it.Name] = true
	}
	all, err := Open(&state.Dir{Path: filepath.Join(dir, ".orc"), Git: &l}).List("feat-x")
	if err != nil || len(all) != writers {
		t.Fatalf("List: %v, %d archives, want %d", err, len(all), writers)
	}
	for _, a := range all {
		if a.Invalid != "" {
			t.Errorf("%s listed as invalid: %s", a.Name, a.Invalid)
		}
	}
}

// The next folder archive of a second is named after the ones taken
// before it, never on one taken, in a few probes however many there are;
// a name freed again (cleanup) may be reused, never a taken one.
func TestNextFreeNameAfterTheTakenOnes(t *testing.T) {
	for _, tc := range []struct {
		taken     []int
		want      int
		maxProbes int
	}{
		{nil, 1, 1},
		{[]int{1}, 2, 2},
		{[]int{1, 2}, 3, 4},
		{[]int{1, 2, 3}, 4, 4},
		{seq(7), 8, 6},
		{seq(8), 9, 8},
		{seq(1000), 1001, 21},
		{[]int{1, 2, 3, 5}, 4, 4},
		{[]int{1, 2, 4}, 5, 6}, // after the highest it saw, past the hole
		{[]int{2, 3}, 1, 1},
	} {
		taken := map[int]bool{}
		for _, n := range tc.taken {
			taken[n] = true
		}
		probes := 0
		got := nextFree(func(n int) bool { probes++; return taken[n] })
		if got != tc.want || taken[got] || probes > tc.maxProbes {
			t.Errorf("taken %v: got %d in %d probes, want %d in at most %d", tc.taken, got, probes, tc.want, tc.maxProbes)
		}
	}
}

func seq(k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = i + 1
	}
	return out
}
