//go:build unix

package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file that is not regular (no size to trust) is still read whole.
func TestReadFileFromPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	want := bytes.Repeat([]byte("0123456789"), 10_000)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(want)
		f.Close()
	}()
	got, err := ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes, err %v", len(got), err)
	}
}

// Open fails as os.Open does (a *PathError naming the path, matching
// fs.ErrNotExist and fs.ErrPermission), reads what os.Open reads, and its
// file closes.
func TestOpenLikeOSOpen(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, err := Open(missing)
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %#v", err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.WriteFile(locked, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(locked); os.Geteuid() != 0 && !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("unreadable file: %v", err)
	} else if err == nil {
		f.Close()
	}
	path := filepath.Join(dir, "f")
	want := []byte("contents\n")
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != path {
		t.Errorf("Name() = %q", f.Name())
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %q, %v", got, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Read(make([]byte, 1)); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
}
