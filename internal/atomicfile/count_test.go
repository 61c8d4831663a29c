package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every fsync is counted, and only the steps that promise durability
// issue one: Stage and MkdirAll do, StageLazy and MkdirAllLazy do not,
// an Appender's Write does not and its Sync does. WriteCounts reports the
// counters to the file the environment names.
func TestFsyncsAreCounted(t *testing.T) {
	r := Root{Dir: t.TempDir()}
	for _, c := range []struct {
		name  string
		step  func() error
		syncs int64
	}{
		{"Stage", func() error { _, err := r.Stage("a", []byte("x"), 0o644); return err }, 1},
		{"StageLazy", func() error { _, err := r.StageLazy("b", []byte("x"), 0o644); return err }, 0},
		{"MkdirAll of two folders", func() error { _, err := r.MkdirAll("d1/d2"); return err }, 2},
		{"MkdirAllLazy of two folders", func() error { _, err := r.MkdirAllLazy("e1/e2"); return err }, 0},
		{"SyncFile", func() error { return os.WriteFile(filepath.Join(r.Dir, "f"), nil, 0o644) }, 0},
		{"SyncFile of f", func() error { return r.SyncFile("f") }, 1},
		{"SyncFile of a missing file", func() error { return r.SyncFile("gone/f") }, 0},
		{"SyncDir", func() error { return r.SyncDir(".") }, boolInt(dirSync)},
		{"Appender Write then Sync", func() error {
			a, created, err := r.OpenLog("log", 0o644)
			if err != nil || !created {
				t.Fatalf("OpenLog: created %v, %v", created, err)
			}
			defer a.Close()
			if err := a.Write([]byte("line\n")); err != nil {
				return err
			}
			return a.Sync()
		}, 1},
	} {
		before := Syncs()
		if err := c.step(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := Syncs() - before; got != c.syncs {
			t.Errorf("%s: %d fsyncs, want %d", c.name, got, c.syncs)
		}
	}
	out := filepath.Join(t.TempDir(), "counts")
	NoteProcess()
	WriteCounts(func(k string) string {
		if k == CountEnv {
			return out
		}
		return ""
	})
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "fsyncs ") || !strings.Contains(string(data), " processes ") {
		t.Fatalf("counts file: %q, %v", data, err)
	}
}

// A failed unsynced append is cut back: nothing of it remains, and the
// log opened again has its old length.
func TestAppenderWriteCutsBack(t *testing.T) {
	r := Root{Dir: t.TempDir()}
	a, _, err := r.OpenLog("log", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Write([]byte("first\n")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a, created, err := r.OpenLog("log", 0o644)
	if err != nil || created || a.Size != 6 {
		t.Fatalf("reopened: size %d, created %v, %v", a.Size, created, err)
	}
	defer a.Close()
	Fault = func(op Op, path string) error {
		if op == OpAppend {
			return syscall.ENOSPC
		}
		return nil
	}
	err = a.Write([]byte("second\n"))
	Fault = nil
	if err == nil {
		t.Fatal("the write did not fail")
	}
	if data, _ := os.ReadFile(filepath.Join(r.Dir, "log")); string(data) != "first\n" {
		t.Fatalf("log = %q", data)
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
