package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// inject installs fn as the fault hook for the rest of the test.
func inject(t *testing.T, fn func(op Op, path string) error) {
	t.Helper()
	Fault = fn
	t.Cleanup(func() { Fault = nil })
}

// failAt fails the n-th step (1-based) with err and counts every step.
func failAt(t *testing.T, n int, err error) *int {
	count := 0
	inject(t, func(Op, string) error {
		count++
		if count == n {
			return err
		}
		return nil
	})
	return &count
}

// Every step of WriteFile, failed in turn (also with ENOSPC), leaves the
// old content and no temp file, except the directory fsync, which comes
// after the rename: then the new content is in place and the error says
// the directory was not synced.
func TestWriteFileEveryStepFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "orc.json")
	steps := failAt(t, 0, nil)
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	total := *steps
	if total != 5 { // create, write, fsync, rename, fsync-dir
		t.Fatalf("WriteFile took %d steps, want 5", total)
	}
	for _, errno := range []error{syscall.EIO, syscall.ENOSPC} {
		for n := 1; n <= total; n++ {
			failAt(t, n, errno)
			err := WriteFile(path, []byte("new"), 0o644)
			if !errors.Is(err, errno) {
				t.Fatalf("step %d: err = %v, want %v", n, err, errno)
			}
			want := "old"
			if n == total {
				want = "new" // the rename happened; only the directory sync failed
			}
			if got := mustRead(t, path); string(got) != want {
				t.Fatalf("step %d: content %q, want %q", n, got, want)
			}
			if got := entries(t, dir); !slices.Equal(got, []string{"orc.json"}) {
				t.Fatalf("step %d: dir holds %q", n, got)
			}
			Fault = nil
			if err := WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// On Windows the directory is never fsynced: the path is taken through
// dirSync, with a fault that would fail any directory fsync.
func TestNoDirectorySyncOnWindows(t *testing.T) {
	dir := t.TempDir()
	refused := errors.New("fsync: Access denied")
	inject(t, func(op Op, _ string) error {
		if op == OpSyncDir {
			return refused
		}
		return nil
	})
	path := filepath.Join(dir, "sub", "f")
	if _, err := MkdirAll(filepath.Dir(path)); !errors.Is(err, refused) {
		t.Fatalf("with directory sync: MkdirAll err = %v, want the refusal", err)
	}
	if err := WriteFile(path, []byte("x"), 0o644); !errors.Is(err, refused) {
		t.Fatalf("with directory sync: WriteFile err = %v, want the refusal", err)
	}

	dirSync = false // what runtime.GOOS == "windows" sets
	t.Cleanup(func() { dirSync = true })
	if _, err := MkdirAll(filepath.Join(dir, "other", "deeper")); err != nil {
		t.Fatalf("MkdirAll: %v", err)
	}
	if err := WriteFile(path, []byte("y"), 0o644); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	if err := Append(filepath.Join(dir, "log"), []byte("line\n"), 0o644); err != nil {
		t.Fatalf("Append: %v", err)
	}
	if err := SyncDir(dir); err != nil {
		t.Fatalf("SyncDir: %v", err)
	}
}

// errSharing stands for ERROR_SHARING_VIOLATION in the tests that take the
// Windows rename path on another platform.
var errSharing = errors.New("The process cannot access the file because it is being used by another process.")

func sharingRetries(t *testing.T, failures int, budget time.Duration) (attempts int, err error) {
	t.Helper()
	retryable = func(err error) bool { return errors.Is(err, errSharing) }
	old := RenameRetry
	RenameRetry = budget
	t.Cleanup(func() { retryable, RenameRetry = isSharingViolation, old })
	inject(t, func(op Op, _ string) error {
		if op != OpRename {
			return nil
		}
		attempts++
		if attempts <= failures {
			return errSharing
		}
		return nil
	})
	dir := t.TempDir()
	path := filepath.Join(dir, "orc.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = WriteFile(path, []byte("new"), 0o644)
	want := "old"
	if err == nil {
		want = "new"
	}
	if got := mustRead(t, path); string(got) != want {
		t.Fatalf("content %q, want %q", got, want)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"orc.json"}) {
		t.Fatalf("dir holds %q", got)
	}
	return attempts, err
}

// A reader holding the target open makes Windows refuse the rename; it is
// retried until the reader lets go, within RenameRetry.
func TestRenameRetriesSharingViolation(t *testing.T) {
	attempts, err := sharingRetries(t, 5, 10*time.Second)
	if err != nil || attempts != 6 {
		t.Fatalf("attempts %d, err %v; want success on the 6th", attempts, err)
	}
}

// ...but not forever: after RenameRetry the error is returned, and the
// target keeps its old content.
func TestRenameRetryIsBounded(t *testing.T) {
	start := time.Now()
	attempts, err := sharingRetries(t, 1<<30, 60*time.Millisecond)
	if !errors.Is(err, errSharing) {
		t.Fatalf("err = %v, want the sharing violation", err)
	}
	if took := time.Since(start); took > 5*time.Second || attempts < 2 {
		t.Fatalf("gave up after %v and %d attempts", took, attempts)
	}
}

// Other errors are not retried.
func TestRenameDoesNotRetryOtherErrors(t *testing.T) {
	attempts, err := sharingRetries(t, 0, time.Second)
	if err != nil || attempts != 1 {
		t.Fatal(attempts, err)
	}
	inject(t, func(op Op, _ string) error {
		if op == OpRename {
			attempts++
			return syscall.EIO
		}
		return nil
	})
	attempts = 0
	if err := WriteFile(filepath.Join(t.TempDir(), "f"), nil, 0o644); !errors.Is(err, syscall.EIO) || attempts != 1 {
		t.Fatalf("attempts %d, err %v", attempts, err)
	}
}

// A failed append (the write, or its fsync) leaves the file exactly as it
// was: the length is restored.
func TestAppendFailureRestoresLength(t *testing.T) {
	for _, failing := range []Op{OpAppend, OpSync} {
		for _, errno := range []error{syscall.EIO, syscall.ENOSPC} {
			t.Run(fmt.Sprint(failing, errno), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "journal.jsonl")
				if err := os.WriteFile(path, []byte("one\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				a, err := OpenAppend(path)
				if err != nil {
					t.Fatal(err)
				}
				defer a.Close()
				if a.Size != 4 {
					t.Fatalf("Size = %d", a.Size)
				}
				inject(t, func(op Op, _ string) error {
					if op == failing {
						return errno
					}
					return nil
				})
				if err := a.Append([]byte("two\n")); !errors.Is(err, errno) {
					t.Fatalf("err = %v", err)
				}
				if got := mustRead(t, path); string(got) != "one\n" {
					t.Fatalf("content %q after a failed append", got)
				}
			})
		}
	}
}

// A short write (the disk filling up mid-append) is cut back too: the
// fault lets the real write happen and fails its fsync afterwards.
func TestAppendPartialWriteIsCutBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.md")
	old := bytes.Repeat([]byte("history\n"), 100)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	inject(t, func(op Op, _ string) error {
		if op == OpSync {
			return syscall.ENOSPC
		}
		return nil
	})
	if err := Append(path, bytes.Repeat([]byte("x"), 1<<20), 0o644); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v", err)
	}
	if got := mustRead(t, path); !bytes.Equal(got, old) {
		t.Fatalf("file is %d bytes, want the %d it had", len(got), len(old))
	}
}

// Append to a missing file that fails leaves no file.
func TestAppendCreateFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	inject(t, func(op Op, _ string) error {
		if op == OpSync {
			return syscall.ENOSPC
		}
		return nil
	})
	if err := Append(filepath.Join(dir, "exclude"), []byte("x\n"), 0o644); err == nil {
		t.Fatal("no error")
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("dir holds %q", got)
	}
}

// OpenAppend refuses a read-only file before anything is written (as a
// user other than root; root writes through modes).
func TestOpenAppendReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through file modes; the CLI scenarios run this as an unprivileged user")
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte("one\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAppend(path); !errors.Is(err, os.ErrPermission) {
		t.Fatalf("err = %v", err)
	}
}

// RemoveAll failing midway (a file another process holds open on Windows)
// leaves a subset, and a second call finishes.
func TestRemoveAllMidway(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sess")
	for _, f := range []string{"files/checkpoint.md", "files/journal.jsonl", "files/sub/a.json"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	inject(t, func(op Op, _ string) error {
		if op == OpRemove {
			n++
			if n == 3 {
				return errSharing
			}
		}
		return nil
	})
	if err := RemoveAll(root); !errors.Is(err, errSharing) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("root gone after a midway failure: %v", err)
	}
	Fault = nil
	if err := RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(root); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("root still there: %v", err)
	}
	if err := RemoveAll(root); err != nil {
		t.Fatalf("missing root: %v", err)
	}
}

// RemoveAll deletes a symbolic link, never what it points to.
func TestRemoveAllDoesNotFollowLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "sess")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "files")); err != nil {
		t.Fatal(err)
	}
	if err := RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(outside, "keep")); string(got) != "k" {
		t.Fatal("followed the link")
	}
}

// Probe leaves nothing behind and reports a refusal.
func TestProbe(t *testing.T) {
	dir := t.TempDir()
	if err := Probe(dir); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("probe left %q", got)
	}
	failAt(t, 1, syscall.EROFS)
	if err := Probe(dir); !errors.Is(err, syscall.EROFS) {
		t.Fatalf("err = %v", err)
	}
	if err := Probe(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("probe of a missing dir succeeded")
	}
}

// Open and ReadFile read what is there, and a rename over an open file
// works (on Windows this is what delete sharing buys).
func TestReadWhileReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orc.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatalf("replace while open: %v", err)
	}
	buf := make([]byte, 8)
	n, _ := f.Read(buf)
	if string(buf[:n]) != "old" {
		t.Fatalf("open handle reads %q, want the old content", buf[:n])
	}
	if got, err := ReadFile(path); err != nil || string(got) != "new" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	if _, err := ReadFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// ReadFile returns every byte, whatever the size against its first buffer,
// and allocates the buffer once for a file of known size.
func TestReadFileSizes(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 4096, 1 << 20, 4<<20 + 7} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(i*7 + size)
		}
		path := filepath.Join(dir, fmt.Sprintf("f%d", size))
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: got %d bytes, err %v", size, len(got), err)
		}
		if size > 0 && cap(got) != size+1 {
			t.Errorf("size %d: buffer cap %d, want %d (one allocation)", size, cap(got), size+1)
		}
	}
}
