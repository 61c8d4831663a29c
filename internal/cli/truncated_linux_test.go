package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
)

// faultFromTruncation reads a mapped file after truncating it in place and
// returns the recovered panic.
func faultFromTruncation(t *testing.T) (r any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orc.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := atomicfile.ReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { r = recover() }()
	_ = bytes.IndexByte(data, 'y')
	return nil
}

// A mapping truncated under a verb ends it with exit 3 and a message that
// says nothing was written; under a display, with silence and exit 0.
func TestTruncatedUnder(t *testing.T) {
	r := faultFromTruncation(t)
	if r == nil {
		t.Fatal("no fault")
	}
	var stderr bytes.Buffer
	if code := truncatedUnder(r, false, &stderr); code != fault.Invalid {
		t.Errorf("code = %d, want %d", code, fault.Invalid)
	}
	const want = "orc-state: a file under .orc/ was truncated in place by another program while orc-state read it; nothing was written\n" +
		"hint: run the command again, then orc-state doctor if it persists\n"
	if stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	stderr.Reset()
	if code := truncatedUnder(r, true, &stderr); code != fault.OK || stderr.Len() != 0 {
		t.Errorf("quiet: code %d, stderr %q", code, stderr.String())
	}
	defer func() {
		if recover() != "a bug" {
			t.Error("a panic that is no fault was swallowed")
		}
	}()
	truncatedUnder("a bug", false, &stderr)
}
