package state

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/lock"
)

// A record orc-state would not have written is refused whole, before any
// step, by repair and by every writer (exit 3, naming doctor): its steps
// leave the state dir, pass through a symlink, or name what no
// transaction gives that kind of step. Nothing inside the state dir or
// beside it changes, and the record stays for doctor to name.
func TestUntrustedRecordIsNeverReplayed(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		sync  []string
		why   string
	}{
		{"rename over a tracked file", []Step{{Op: "rename", Path: "orc.json", To: "../src/main.go"}}, nil, `names "../src/main.go", which leaves the state dir`},
		{"move a session out", []Step{{Op: "move", Path: "main", To: "../../X/main"}}, nil, "which leaves the state dir"},
		{"remove-all through a link", []Step{{Op: "remove-all", Path: "lnk/sub"}}, nil, "lnk is a symlink"},
		{"append through a link", []Step{{Op: "append", Path: "lnk/f", Size: 4, Data: []byte("x")}}, nil, "lnk is a symlink"},
		{"rename onto a link's folder", []Step{{Op: "rename", Path: "main/files/.checkpoint.md.tmp-1", To: "lnk/checkpoint.md"}}, nil, "lnk is a symlink"},
		{"remove an absolute path", []Step{{Op: "remove", Path: "/etc/hostname"}}, nil, "which leaves the state dir"},
		{"remove-all the state dir", []Step{{Op: "remove-all", Path: "."}}, nil, "which is no file in the state dir"},
		{"rename a file that is no temp", []Step{{Op: "rename", Path: "orc.json", To: "main/files/checkpoint.md"}}, nil, "which is not a temp file of"},
		{"rename a temp into another folder", []Step{{Op: "rename", Path: ".orc.json.tmp-1", To: "main/orc.json"}}, nil, "which is not a temp file of"},
		{"a step orc-state never takes", []Step{{Op: "chmod", Path: "orc.json"}}, nil, "is no step orc-state takes"},
		{"remove-all inside a session", []Step{{Op: "remove-all", Path: "main/files"}}, nil, "names something other than a session folder or an archive"},
		{"remove-all of a session's archives", []Step{{Op: "remove-all", Path: ArchiveFolder + "/main"}}, nil, "names something other than a session folder or an archive"},
		{"remove-all of a hidden archive part", []Step{{Op: "remove-all", Path: ArchiveFolder + "/main/.x"}}, nil, "names something other than a session folder or an archive"},
		{"a backslash", []Step{{Op: "remove", Path: `..\x`}}, nil, "which leaves the state dir"},
		{"an unclean path", []Step{{Op: "remove", Path: "main/../orc.json"}}, nil, "which is not a clean path"},
		{"the record itself", []Step{{Op: "remove", Path: IntentFile}}, nil, "which only orc-state itself handles"},
		{"a folder to sync outside", []Step{{Op: "remove", Path: "main/files/x"}}, []string{"../outside"}, "which leaves the state dir"},
		{"a good step before a bad one", []Step{{Op: "remove", Path: ProofFile}, {Op: "move", Path: "main", To: "main/../.."}}, nil, "step 2 (move)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDir(t)
			mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
			base := filepath.Dir(d.Path)
			outside := filepath.Join(base, "outside")
			if err := os.MkdirAll(filepath.Join(outside, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(outside, "f"), []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(d.Path, "lnk")); err != nil {
				t.Fatal(err)
			}
			rec, _ := json.Marshal(Intent{Verb: "phase set", Actor: "x", At: "2026-01-01T00:00:00Z", PID: 1, Steps: tt.steps, Sync: tt.sync})
			if err := os.WriteFile(filepath.Join(d.Path, IntentFile), rec, 0o644); err != nil {
				t.Fatal(err)
			}
			before := manifest(t, base)

			in, err := d.Pending()
			if err != nil || in == nil || in.Invalid == nil || !strings.Contains(in.Invalid.Error(), tt.why) {
				t.Fatalf("Pending = %+v, %v; want Invalid saying %q", in, err, tt.why)
			}
			_, err = d.Finish(context.Background(), opts("repair"))
			if fault.Code(err) != fault.Invalid || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("Finish = %v (exit %d), want exit 3 saying %q", err, fault.Code(err), tt.why)
			}
			if _, _, hint := fault.Explain(err); hint != "run orc-state doctor" {
				t.Errorf("hint %q", hint)
			}
			err = d.Update(context.Background(), opts("phase set"), setPhase(2))
			if fault.Code(err) != fault.Invalid {
				t.Fatalf("a writer: %v (exit %d), want exit 3", err, fault.Code(err))
			}
			if after := manifest(t, base); after != before {
				t.Fatalf("changed:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

// A record orc-state wrote passes the check, also for a migrate (folder
// moves) and an orphan removal (remove-all of a top-level folder).
func TestOwnRecordsPassTheCheck(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	in := &Intent{Verb: "migrate", Steps: []Step{
		{Op: "move", Path: "old", To: "main2"},
		{Op: "append", Path: "main/files/journal.jsonl", Size: 1, Data: []byte("x")},
		{Op: "rename", Path: "main/files/.checkpoint.md.tmp-123", To: "main/files/checkpoint.md"},
		{Op: "rename", Path: "." + strings.Repeat("a", 200) + ".tmp-9", To: strings.Repeat("a", 230)},
		{Op: "remove", Path: "main/files/.x.tmp-1"},
		{Op: "remove-all", Path: "orphan"},
	}, Sync: []string{".", "main/files"}}
	if err := d.checkRecord(in); err != nil {
		t.Fatal(err)
	}
}

// After a restart the files the log names may be old, torn or gone (they
// were renamed into place without an fsync): the next writer does every
// record of the log again from its content, so the state is exactly what
// the transactions wrote, and a restart that lost nothing changes nothing.
func TestRestartReplaysTheLog(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	mustUpdate(t, d, "phase set", setPhase(3))
	mustUpdate(t, d, "progress append", func(tx *Tx) error {
		tx.Append("main", ProgressFile, []byte("a line\n"))
		tx.Touch("main", nil)
		return nil
	})
	want := manifest(t, d.Path)
	jpath := d.File("main", "journal.jsonl")
	journalData, _ := os.ReadFile(jpath)
	for _, c := range []struct {
		name string
		harm func(t *testing.T)
	}{
		{"nothing lost", func(t *testing.T) {}},
		{"orc.json empty, checkpoint gone", func(t *testing.T) {
			if err := os.WriteFile(d.RegistryPath(), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(d.File("main", CheckpointFile)); err != nil {
				t.Fatal(err)
			}
		}},
		{"the journal's last line zeros", func(t *testing.T) {
			torn := append([]byte{}, journalData...)
			last := strings.LastIndex(strings.TrimSuffix(string(torn), "\n"), "\n") + 1
			for i := last; i < len(torn); i++ {
				torn[i] = 0
			}
			if err := os.WriteFile(jpath, torn, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"the journal's last line missing", func(t *testing.T) {
			last := strings.LastIndex(strings.TrimSuffix(string(journalData), "\n"), "\n") + 1
			if err := os.WriteFile(jpath, journalData[:last], 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			saved, _ := os.ReadFile(filepath.Join(d.Path, IntentFile))
			c.harm(t)
			old := bootOnce
			bootOnce = func() string { return "another-boot" }
			defer func() { bootOnce = old }()
			in, err := d.Pending()
			if err != nil || in == nil || !in.Restart {
				t.Fatalf("Pending after a restart: %+v, %v", in, err)
			}
			// A reader that cannot take the lock to replay the log does
			// not trust the files meanwhile.
			held, err := lock.Acquire(context.Background(), d.Path, "holder", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			wait := readerRecoveryWait
			readerRecoveryWait = 50 * time.Millisecond
			_, _, err = d.ReadRegistry()
			readerRecoveryWait = wait
			held.Release()
			if fault.Code(err) != fault.Interrupted {
				t.Fatalf("a read after a restart, the lock held: %v (exit %d)", err, fault.Code(err))
			}
			// One that can does the records again first, as the next
			// writer would, then reads what the transactions wrote.
			reg, _, err := d.ReadRegistry()
			if err != nil || len(reg.Sessions) != 1 || reg.Sessions[0].Phase.String() != "3" {
				t.Fatalf("a read after a restart: %+v, %v", reg, err)
			}
			if got := manifest(t, d.Path); got != want {
				t.Fatalf("after the replay:\n%s\nwant:\n%s", got, want)
			}
			if _, err := d.Finish(context.Background(), opts("repair")); err != nil {
				t.Fatal(err)
			}
			if in, _ := d.Pending(); in != nil {
				t.Fatalf("still pending: %s", in.Describe())
			}
			if _, _, err := d.ReadRegistry(); err != nil {
				t.Fatalf("a read after the replay: %v", err)
			}
			if _, err := os.Stat(filepath.Join(d.Path, IntentFile)); !os.IsNotExist(err) {
				t.Fatalf("the log is still there after its checkpoint: %v", err)
			}
			// put the log back for the next case
			if err := os.WriteFile(filepath.Join(d.Path, IntentFile), saved, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A file of largeFile bytes or more is not copied into its record: its
// temp file and its folder are made durable before the record, which names
// the temp (on Linux by the one syncfs that also checkpoints the log,
// elsewhere by the temp's fsync and its folder's); an interruption before its rename, then a restart, is completed
// by renaming that temp, to exactly the content written.
func TestLargeFileIsDurableBeforeItsRecord(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	big := bytes.Repeat([]byte(`{"k": "0123456789abcdef"}`+"\n"), largeFile/20)
	put := func(tx *Tx) error {
		tx.Write("main", "big.json", big)
		tx.Touch("main", map[string]string{"artifact": "big.json"})
		return nil
	}
	var order []string
	atomicfile.Fault = func(op atomicfile.Op, path string) error {
		rel, _ := filepath.Rel(d.Path, path)
		if op == atomicfile.OpSync || op == atomicfile.OpSyncDir || op == atomicfile.OpSyncFS {
			order = append(order, string(op)+" "+filepath.ToSlash(rel))
		}
		if op == atomicfile.OpRename && strings.HasSuffix(path, "big.json") {
			return syscall.EIO
		}
		return nil
	}
	err := d.Update(context.Background(), opts("artifact put"), put)
	atomicfile.Fault = nil
	if fault.Code(err) != fault.Interrupted {
		t.Fatalf("err = %v", err)
	}
	want := []string{"fsync main/files/big.json", "fsync-dir main/files", "fsync " + IntentFile}
	if atomicfile.CanSyncAll {
		want = []string{"syncfs .", "fsync " + IntentFile}
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Fatalf("fsyncs:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	if st, _ := os.Stat(filepath.Join(d.Path, IntentFile)); st.Size() >= int64(len(big)) {
		t.Fatalf("the log is %d bytes: it carries the large file", st.Size())
	}
	old := bootOnce
	bootOnce = func() string { return "another-boot" }
	defer func() { bootOnce = old }()
	if _, err := d.Finish(context.Background(), opts("repair")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(d.File("main", "big.json")); !bytes.Equal(got, big) {
		t.Fatalf("big.json: %d bytes, want %d", len(got), len(big))
	}
}
