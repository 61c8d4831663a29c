package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// forceWalk makes every resolution take the lstat walk, as on a system
// without openat2, for the rest of the test.
func forceWalk(t *testing.T) {
	t.Helper()
	was := noOpenat2.Load()
	noOpenat2.Store(true)
	t.Cleanup(func() { noOpenat2.Store(was) })
}

// With openat2 the folder is held by a descriptor: a folder swapped for
// a link after it was resolved does not move the step outside. (The lstat
// walk has this window; openat2 is what closes it.)
func TestRootClosesTheWindow(t *testing.T) {
	r, outside := rootFixture(t)
	if noOpenat2.Load() {
		t.Skip("no openat2 here")
	}
	h, base, err := r.at(filepath.Join("sess", "files", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	if err := os.Rename(filepath.Join(r.Dir, "sess"), filepath.Join(r.Dir, "sess-real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(r.Dir, "sess")); err != nil {
		t.Fatal(err)
	}
	f, err := h.open("planted", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Lstat(filepath.Join(r.Dir, "sess-real", "files", "planted")); err != nil {
		t.Fatalf("the step did not act in the folder it resolved: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "files")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the step followed the link swapped in")
	}
	_ = base
	// And a resolution after the swap refuses the link.
	if _, err := r.OpenAppend(filepath.Join("sess", "files", "journal.jsonl")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("after the swap: %v", err)
	}
}

// A held root's rename acts through the folders it holds, as every step
// does: a session folder swapped for a link after its temp was staged does
// not lead the rename elsewhere (a rename by path would follow the link).
func TestHeldRenameActsThroughTheHeldFolders(t *testing.T) {
	base, outside := rootFixture(t)
	if noOpenat2.Load() {
		t.Skip("no openat2 here")
	}
	if err := os.MkdirAll(filepath.Join(outside, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, release := base.Hold()
	defer release()
	tmp, err := r.StageLazy(filepath.Join("sess", "files", "checkpoint.md"), []byte("new"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(r.Dir, "sess"), filepath.Join(r.Dir, "sess-real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(r.Dir, "sess")); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Commit(); err != nil {
		t.Fatalf("the rename did not act through the held folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(r.Dir, "sess-real", "files", "checkpoint.md")); err != nil || string(b) != "new" {
		t.Fatalf("the held folder holds %q (%v)", b, err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "files", "checkpoint.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the rename followed the link swapped in")
	}
}
