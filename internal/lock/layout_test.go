package lock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Windows enforces a byte-range lock per handle: gofrs/flock locks byte 0
// through its own handle, so a write or read of byte 0 through any other
// handle fails there. The holder line is written through a second handle
// and read without the lock, so neither may touch byte 0. On Linux the
// rule is checked through the accessors every holder access goes through.
func TestHolderNeverTouchesTheLockByte(t *testing.T) {
	var accesses []string
	guard := func(what string, real func(*os.File, []byte, int64) (int, error)) func(*os.File, []byte, int64) (int, error) {
		return func(f *os.File, b []byte, off int64) (int, error) {
			accesses = append(accesses, fmt.Sprintf("%s [%d,%d)", what, off, off+int64(len(b))))
			if off < holderOffset {
				return 0, fmt.Errorf("%s at %d: the lock byte is locked by another handle", what, off)
			}
			return real(f, b, off)
		}
	}
	oldW, oldR := writeAt, readAt
	writeAt, readAt = guard("write", oldW), guard("read", oldR)
	t.Cleanup(func() { writeAt, readAt = oldW, oldR })

	dir := t.TempDir()
	l := mustAcquire(t, dir, "phase set", time.Second)
	want := fmt.Sprintf("pid %d verb phase set since ", os.Getpid())
	if h := Holder(dir); !strings.HasPrefix(h, want) {
		t.Fatalf("Holder = %q while held", h)
	}
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0 || !strings.HasPrefix(string(data[1:]), want) {
		t.Fatalf(".lock = %q, want a zero lock byte, then the holder line", data)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if h := Holder(dir); h != "" {
		t.Fatalf("Holder = %q after release", h)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, FileName)); len(data) != holderOffset {
		t.Fatalf(".lock = %q after release, want only the lock byte", data)
	}
	if len(accesses) < 3 {
		t.Fatalf("accesses %q: the holder line was not written and read through the accessors", accesses)
	}
}

// The holder line is shown in messages: control characters written into
// the file by anyone are dropped, and only the first line counts.
func TestHolderDropsControlCharacters(t *testing.T) {
	dir := t.TempDir()
	raw := "\x00pid 9 verb x\x1b[31m since 2026-01-01T00:00:00Z\r\nsecond line\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	if h := Holder(dir); h != "pid 9 verb x[31m since 2026-01-01T00:00:00Z" {
		t.Fatalf("Holder = %q", h)
	}
}
