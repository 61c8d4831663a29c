package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// A held root keeps the folders its steps opened, but a folder renamed or
// removed through it (or one holding it) is resolved again by the next
// step: a write to its old path lands in the folder now there, never in
// the one that moved away, and never through a link put in its place.
func TestHeldFoldersAreResolvedAgainAfterTheyMove(t *testing.T) {
	write := func(t *testing.T, r Root, rel, data string) {
		t.Helper()
		tmp, err := r.StageLazy(rel, []byte(data), 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if err := tmp.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	read := func(t *testing.T, path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name string
		move func(r Root) error
		kept string // where the first file is after the move ("" for gone)
	}{
		{"a session folder renamed", func(r Root) error { return r.Rename("sess", "moved") }, "moved/files/a"},
		{"its files folder renamed", func(r Root) error { return r.Rename("sess/files", "sess/old") }, "sess/old/a"},
		{"a session folder removed", func(r Root) error { return r.RemoveAll("sess") }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, outside := rootFixture(t)
			r, release := base.Hold()
			defer release()
			write(t, r, "sess/files/a", "first")
			if !r.Resolved("sess/files") || !r.Resolved("sess") {
				t.Fatal("the folder a step opened is not held")
			}
			if err := c.move(r); err != nil {
				t.Fatal(err)
			}
			if r.Resolved("sess/files") {
				t.Fatal("a moved folder is still held")
			}
			if _, err := r.MkdirAllLazy("sess/files"); err != nil {
				t.Fatal(err)
			}
			write(t, r, "sess/files/b", "second")
			if got := read(t, filepath.Join(r.Dir, "sess", "files", "b")); got != "second" {
				t.Fatalf("the new folder holds %q", got)
			}
			if c.kept != "" {
				if got := read(t, filepath.Join(r.Dir, c.kept)); got != "first" {
					t.Fatalf("%s holds %q", c.kept, got)
				}
				if _, err := os.Stat(filepath.Join(r.Dir, filepath.Dir(c.kept), "b")); err == nil {
					t.Fatal("the second write went to the folder that moved away")
				}
			}
			// A link put where a held folder was is refused, not followed.
			if err := r.RemoveAll("sess"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(r.Dir, "sess")); err != nil {
				t.Fatal(err)
			}
			if _, err := r.StageLazy("sess/sub/x", []byte("no"), 0o644); err == nil {
				t.Fatal("a write through a link put in place of a held folder succeeded")
			}
			if _, err := os.Stat(filepath.Join(outside, "sub", "x")); err == nil {
				t.Fatal("a write went through the link")
			}
		})
	}
}

// Released, a root opens each folder anew again.
func TestAReleasedRootHoldsNothing(t *testing.T) {
	base, _ := rootFixture(t)
	r, release := base.Hold()
	if _, err := r.ReadFile("sess/files/journal.jsonl"); err != nil {
		t.Fatal(err)
	}
	if !r.Resolved("sess/files") {
		t.Fatal("not held while held")
	}
	release()
	if r.Resolved("sess/files") {
		t.Fatal("held after release")
	}
	if _, err := r.ReadFile("sess/files/journal.jsonl"); err != nil {
		t.Fatal(err)
	}
}

// A held root may be read from several goroutines at once (a verb that
// reads sessions a few at a time while the lock is held).
func TestAHeldRootIsReadFromGoroutines(t *testing.T) {
	base, _ := rootFixture(t)
	for i := range 8 {
		dir := filepath.Join(base.Dir, "s"+strconv.Itoa(i), "files")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, release := base.Hold()
	defer release()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				rel := filepath.Join("s"+strconv.Itoa(i), "files", "f")
				if _, err := r.ReadFile(rel); err != nil {
					errs <- err
					return
				}
				_ = r.Resolved(filepath.Dir(rel))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
