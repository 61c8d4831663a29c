package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func bigFile(t *testing.T, size int) (string, []byte) {
	t.Helper()
	want := make([]byte, size)
	for i := range want {
		want[i] = byte(i % 251)
	}
	path := filepath.Join(t.TempDir(), "orc.json")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// A large file is mapped, and a writer that renames a new file over it
// leaves the mapped bytes as they were.
func TestReadOnlyMapsAndSurvivesARename(t *testing.T) {
	path, want := bigFile(t, mapThreshold+4097)
	got, err := ReadOnly(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadOnly: %d bytes, %v", len(got), err)
	}
	if cap(got) == len(got)+1 {
		t.Fatal("the large file was copied (a ReadFile buffer), not mapped")
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the mapped bytes changed after a rename over the file")
	}
	small, _ := bigFile(t, 100)
	if got, err := ReadOnly(small); err != nil || len(got) != 100 || cap(got) != 101 {
		t.Fatalf("small file: %d bytes (cap %d), %v; want a copy", len(got), cap(got), err)
	}
}

// Truncating a mapped file in place makes a read of the lost pages fault;
// with SetPanicOnFault that is a panic IsFault recognises.
func TestReadOnlyTruncatedInPlaceFaults(t *testing.T) {
	path, _ := bigFile(t, mapThreshold+8192)
	got, err := ReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() {
			if r := recover(); r != nil {
				f = IsFault(r)
			}
		}()
		_ = bytes.Count(got, []byte{7})
		return false
	}()
	if !faulted {
		t.Fatal("reading a mapping of a file truncated in place did not fault")
	}
	if IsFault("a string") || IsFault(nil) {
		t.Fatal("IsFault accepts what is no memory fault")
	}
}
