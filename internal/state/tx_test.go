package state

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/registry"
)

// fixedClock is the recorded time of the tests' state dirs: two runs of
// one transaction write the same bytes.
func fixedClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func newDir(t *testing.T) *Dir {
	t.Helper()
	return &Dir{Path: filepath.Join(t.TempDir(), ".orc"), Clock: fixedClock}
}

func opts(verb string) Options { return Options{Verb: verb, Actor: "test", LockTimeout: time.Second} }

// addSession is what init does: a new entry, its mirror, a journal line.
func addSession(tx *Tx, id string) error {
	now := tx.Dir().Now()
	tx.Reg.Sessions = append(tx.Reg.Sessions, registry.Session{
		SessionID: id, Branch: id, GitBranch: id, Command: "flow", Status: "in_progress",
		Phase: registry.Phase{N: 1}, PhaseLabel: registry.Str("init"), TotalPhases: 9,
		LinkedPRs: []registry.PR{}, StartedAt: now, UpdatedAt: now,
	})
	s := &tx.Reg.Sessions[len(tx.Reg.Sessions)-1]
	if err := tx.Mirror(s); err != nil {
		return err
	}
	tx.RegistryChanged()
	tx.Touch(id, map[string]string{"init": id})
	return nil
}

func mustUpdate(t *testing.T, d *Dir, verb string, fn func(tx *Tx) error) {
	t.Helper()
	if err := d.Update(context.Background(), opts(verb), fn); err != nil {
		t.Fatalf("%s: %v", verb, err)
	}
}

// setPhase is what phase set does.
func setPhase(n int) func(tx *Tx) error {
	return func(tx *Tx) error {
		s := findID(tx.Reg, "main")
		tx.NoteOriginal(s)
		s.Phase = registry.Phase{N: n}
		s.UpdatedAt = tx.Dir().Now()
		if err := tx.Mirror(s); err != nil {
			return err
		}
		tx.RegistryChanged()
		tx.Touch("main", map[string]int{"phase": n})
		return nil
	}
}

// manifest lists every entry under root with the sha256 of each file
// (the lock file's holder line aside: it is empty between writers).
func manifest(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return filepath.SkipAll
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case rel == IntentFile:
			// The log is compared by what it says (loggedSeq, Pending),
			// not by its bytes: a checkpoint removes it.
		case de.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			lines = append(lines, "L "+rel+" -> "+target)
		case de.IsDir():
			lines = append(lines, "D "+rel)
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("F %s %x", rel, sha256.Sum256(data)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// The verb's function runs twice when .lock is missing (a dry run, then
// for real), and what it prints is printed once, after the commit.
func TestDryRunThenRealRunPrintsOnce(t *testing.T) {
	d := newDir(t)
	var out, errw bytes.Buffer
	o := opts("init")
	o.Stdout, o.Stderr = &out, &errw
	runs := 0
	err := d.Update(context.Background(), o, func(tx *Tx) error {
		runs++
		fmt.Fprintln(tx.Stdout(), "main")
		fmt.Fprintln(tx.Stderr(), "a warning")
		if out.Len() > 0 {
			t.Error("output reached the caller while the function ran")
		}
		return addSession(tx, "main")
	})
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 || out.String() != "main\n" || errw.String() != "a warning\n" {
		t.Fatalf("runs %d, stdout %q, stderr %q; want 2 runs, each line once", runs, out.String(), errw.String())
	}

	// With .lock present: one run.
	runs = 0
	out.Reset()
	errw.Reset()
	if err := d.Update(context.Background(), o, func(tx *Tx) error {
		runs++
		fmt.Fprintln(tx.Stdout(), "again")
		return setPhase(2)(tx)
	}); err != nil {
		t.Fatal(err)
	}
	if runs != 1 || out.String() != "again\n" {
		t.Fatalf("runs %d, stdout %q", runs, out.String())
	}
}

// A dry run that refuses, or stages nothing, creates nothing (no state
// dir, no lock); its output is printed when it is the last run.
func TestDryRunCreatesNothing(t *testing.T) {
	d := newDir(t)
	var out bytes.Buffer
	o := opts("repair")
	o.Stdout = &out
	refusal := fault.Usagef("no")
	if err := d.Update(context.Background(), o, func(tx *Tx) error {
		fmt.Fprintln(tx.Stdout(), "never shown")
		return refusal
	}); err != refusal {
		t.Fatalf("err = %v", err)
	}
	if err := d.Update(context.Background(), o, func(tx *Tx) error {
		fmt.Fprintln(tx.Stdout(), "nothing to do")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(d.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the state dir exists after dry runs that wrote nothing: %v", err)
	}
	if out.String() != "nothing to do\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

// stepLog records every file-system step of the transactions it watches.
func stepLog(t *testing.T, d *Dir) *[]string {
	var steps []string
	atomicfile.Fault = func(op atomicfile.Op, path string) error {
		rel, _ := filepath.Rel(d.Path, path)
		base := filepath.Base(rel)
		if atomicfile.IsTemp(base) {
			base = "temp"
		}
		steps = append(steps, string(op)+" "+filepath.ToSlash(filepath.Join(filepath.Dir(rel), base)))
		return nil
	}
	t.Cleanup(func() { atomicfile.Fault = nil })
	return &steps
}

// The order of a mutation's steps: everything that can fail for want of
// space or permission first (temps, unsynced; opening the journal), then
// the record carrying the whole change and its one fsync, then the append,
// then the renames with orc.json last, then the record's marker (no fsync
// of the files: the next checkpoint makes them durable).
func TestStepOrder(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	steps := stepLog(t, d)
	mustUpdate(t, d, "phase set", setPhase(3))
	want := []string{
		"create main/files/checkpoint.md", "write main/files/checkpoint.md",
		"create main/files/journal.anchor", "write main/files/journal.anchor",
		"create orc.json", "write orc.json",
		"create .orc.json.proof", "write .orc.json.proof", // registry.Proof of the new orc.json
		"open-append main/files/journal.jsonl",
		"open-append .transaction.json", "append .transaction.json", "fsync .transaction.json", // the record: the one fsync
		"append main/files/journal.jsonl",
		"rename main/files/checkpoint.md", "rename main/files/journal.anchor", "rename orc.json", "rename .orc.json.proof",
		"append .transaction.json", // the record's marker
	}
	if got := strings.Join(*steps, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("steps:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// loggedSeq is the sequence number of the last record in the state dir's
// log (0: none): a refused transaction adds none.
func loggedSeq(t *testing.T, d *Dir) int64 {
	t.Helper()
	st, err := d.readLog()
	if err != nil {
		t.Fatal(err)
	}
	if last := st.last(); last != nil {
		return last.Seq
	}
	return 0
}

// A symlinked removed.jsonl, a read-only journal (through an injected
// EACCES, as root writes through modes) and a full disk are refused before
// anything is visible: exit 3, the state dir byte-identical.
func TestPreflightRefusals(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "done") })

	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(d.Path, RemovedFile)); err != nil {
		t.Fatal(err)
	}
	before := manifest(t, d.Path)
	err := d.Update(context.Background(), opts("session remove"), func(tx *Tx) error {
		tx.RemoveSession(*findID(tx.Reg, "done"))
		return nil
	})
	if fault.Code(err) != fault.Invalid || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("symlinked removed.jsonl: %v (exit %d)", err, fault.Code(err))
	}
	if after := manifest(t, d.Path); after != before {
		t.Fatalf("changed:\n%s\nwas:\n%s", after, before)
	}
	if data, _ := os.ReadFile(outside); string(data) != "precious\n" {
		t.Fatal("wrote through the link")
	}
	os.Remove(filepath.Join(d.Path, RemovedFile))
	before = manifest(t, d.Path)

	for _, c := range []struct {
		op    atomicfile.Op
		match string
		errno error
	}{
		{atomicfile.OpOpenAppend, "journal.jsonl", syscall.EACCES},
		{atomicfile.OpCreate, "checkpoint.md", syscall.EACCES},
		{atomicfile.OpWrite, "orc.json", syscall.ENOSPC},
		{atomicfile.OpAppend, "journal.jsonl", syscall.ENOSPC},
		{atomicfile.OpAppend, IntentFile, syscall.ENOSPC},
		{atomicfile.OpSync, IntentFile, syscall.EIO},
	} {
		seq := loggedSeq(t, d)
		atomicfile.Fault = func(op atomicfile.Op, path string) error {
			if op == c.op && strings.HasSuffix(path, c.match) {
				return c.errno
			}
			return nil
		}
		err := d.Update(context.Background(), opts("phase set"), setPhase(4))
		atomicfile.Fault = nil
		if fault.Code(err) != fault.Invalid || !errors.Is(err, c.errno) || !strings.Contains(err.Error(), "nothing was written") {
			t.Fatalf("%s %s: %v (exit %d)", c.op, c.match, err, fault.Code(err))
		}
		if after := manifest(t, d.Path); after != before {
			t.Fatalf("%s %s changed the state:\n%s\nwas:\n%s", c.op, c.match, after, before)
		}
		if got := loggedSeq(t, d); got > seq {
			t.Fatalf("%s %s left its record (seq %d)", c.op, c.match, got)
		}
	}
	mustUpdate(t, d, "phase set", setPhase(4)) // and then it works
}

// transactions are the mutations the exhaustive test fails step by step:
// each starts from the same state.
var transactions = []struct {
	verb string
	fn   func(tx *Tx) error
}{
	{"phase set", setPhase(5)},
	{"init", func(tx *Tx) error { return addSession(tx, "new") }},
	{"progress append", func(tx *Tx) error {
		tx.Append("main", ProgressFile, []byte("\n## step\n\ntext\n"))
		tx.Touch("main", map[string]string{"title": "step"})
		return nil
	}},
	{"session remove", func(tx *Tx) error {
		tx.RemoveSession(*findID(tx.Reg, "done"))
		return nil
	}},
	{"repair --temp", func(tx *Tx) error {
		tx.RemoveFile("main/files/.slices.json.tmp-1")
		tx.Touch("main", map[string]string{"fix": "temp"})
		return nil
	}},
	{"migrate", func(tx *Tx) error { // a folder move, as migrate stages one
		tx.RenameSession("done", "done2")
		s := findID(tx.Reg, "done")
		s.SessionID, s.Branch, s.GitBranch = "done2", "done2", "done2"
		tx.RegistryChanged()
		if err := tx.Mirror(s); err != nil {
			return err
		}
		tx.Touch("done2", map[string]string{"from": "done"})
		return nil
	}},
}

// Every step of every transaction above, failed in turn with EIO and with
// ENOSPC: the state is byte-identical afterwards (exit 3), or the failure
// came after the commit point (exit 6) and Finish brings the state to
// exactly what the uninterrupted transaction writes.
func TestEveryStepFails(t *testing.T) {
	base := newDir(t)
	mustUpdate(t, base, "init", func(tx *Tx) error { return addSession(tx, "main") })
	mustUpdate(t, base, "init", func(tx *Tx) error { return addSession(tx, "done") })
	mustUpdate(t, base, "progress append", func(tx *Tx) error {
		tx.Append("main", ProgressFile, []byte("first\n"))
		tx.Append("done", ProgressFile, []byte("first\n"))
		tx.Touch("main", nil)
		return nil
	})
	mustUpdate(t, base, "session remove", func(tx *Tx) error { tx.Tombstone([]byte("{}\n")); return nil })
	if err := os.WriteFile(base.File("main", ".slices.json.tmp-1"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	copyDir := func(t *testing.T) *Dir {
		d := newDir(t)
		if err := os.CopyFS(d.Path, os.DirFS(base.Path)); err != nil {
			t.Fatal(err)
		}
		return d
	}
	old := manifest(t, base.Path)
	oldSeq := loggedSeq(t, base)
	total, interrupted := 0, 0
	for _, tr := range transactions {
		clean := copyDir(t)
		steps := stepLog(t, clean)
		if err := clean.Update(context.Background(), opts(tr.verb), tr.fn); err != nil {
			t.Fatalf("%s: %v", tr.verb, err)
		}
		atomicfile.Fault = nil
		want := manifest(t, clean.Path)
		n := len(*steps)
		for _, errno := range []error{syscall.EIO, syscall.ENOSPC} {
			for k := 1; k <= n; k++ {
				d := copyDir(t)
				count := 0
				var failed string
				atomicfile.Fault = func(op atomicfile.Op, path string) error {
					count++
					if count == k {
						failed = string(op) + " " + path
						return errno
					}
					return nil
				}
				err := d.Update(context.Background(), opts(tr.verb), tr.fn)
				atomicfile.Fault = nil
				total++
				got := manifest(t, d.Path)
				switch fault.Code(err) {
				case fault.OK:
					// a failed checkpoint after the change: its record keeps it
					if got != want {
						t.Errorf("%s, step %d (%s) failed with %v: exit 0 but the state is not the transaction's:\n%s\nwant:\n%s", tr.verb, k, failed, errno, got, want)
					}
				case fault.Invalid:
					if got != old {
						t.Errorf("%s, step %d (%s) failed with %v: exit 3 but the state changed:\n%s", tr.verb, k, failed, errno, got)
					}
					if seq := loggedSeq(t, d); seq > oldSeq {
						t.Errorf("%s, step %d (%s) failed with %v: exit 3 but its record (seq %d) stayed", tr.verb, k, failed, errno, seq)
					}
				case fault.Interrupted:
					interrupted++
					if in, _ := d.Pending(); in == nil {
						t.Errorf("%s, step %d (%s): exit 6 without a record", tr.verb, k, failed)
					}
					if _, err := d.Finish(context.Background(), opts("repair")); err != nil {
						t.Errorf("%s, step %d (%s): Finish: %v", tr.verb, k, failed, err)
					}
					if got := manifest(t, d.Path); got != want {
						t.Errorf("%s, step %d (%s) failed with %v; after Finish:\n%s\nwant:\n%s", tr.verb, k, failed, errno, got, want)
					}
				default:
					t.Errorf("%s, step %d (%s) failed with %v: err %v (exit %d)", tr.verb, k, failed, errno, err, fault.Code(err))
				}
			}
		}
	}
	t.Logf("%d injected failures, %d of them after the commit point", total, interrupted)
}

// The next writer completes an interrupted transaction before its own
// change, and the same command run again is not applied twice.
func TestNextWriterCompletesAndRetryIsRecognised(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	progress := func(tx *Tx) error {
		tx.Append("main", ProgressFile, []byte("once\n"))
		tx.Touch("main", map[string]string{"sha256": "x"})
		return nil
	}
	atomicfile.Fault = func(op atomicfile.Op, path string) error {
		if op == atomicfile.OpRename && strings.HasSuffix(path, journal.AnchorName) {
			return syscall.EIO
		}
		return nil
	}
	err := d.Update(context.Background(), opts("progress append"), progress)
	atomicfile.Fault = nil
	if fault.Code(err) != fault.Interrupted {
		t.Fatalf("err = %v", err)
	}
	if err := d.Update(context.Background(), opts("progress append"), progress); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(d.File("main", ProgressFile)); string(data) != "once\n" {
		t.Fatalf("progress.md = %q", data)
	}
	entries, problems, err := journal.Read(d.File("main", journal.FileName))
	if err != nil || len(problems) > 0 || len(entries) != 2 {
		t.Fatalf("journal: %d entries, %v, %v", len(entries), problems, err)
	}
	if p, _ := d.Pending(); p != nil {
		t.Fatal("record left")
	}
}

// An edit of the journal's last line no longer matches the anchor: the
// next writer records it as an outside edit of the journal.
func TestAnchorNoticesLastLineEdit(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	jp := d.File("main", journal.FileName)
	data, _ := os.ReadFile(jp)
	if err := os.WriteFile(jp, bytes.Replace(data, []byte(`"actor":"test"`), []byte(`"actor":"mallory"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, d, "phase set", setPhase(2))
	last, _, _ := journal.Last(jp)
	if strings.Join(last.Outside, ",") != "journal" {
		t.Fatalf("outside = %v, want [journal]", last.Outside)
	}
	// A journal without an anchor is taken as it is and gets one.
	if err := os.Remove(d.File("main", journal.AnchorName)); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, d, "phase set", setPhase(3))
	last, _, _ = journal.Last(jp)
	if len(last.Outside) != 0 {
		t.Fatalf("outside = %v for a journal without an anchor", last.Outside)
	}
	if _, err := os.Stat(d.File("main", journal.AnchorName)); err != nil {
		t.Fatal("no anchor after the write")
	}
}

// safePath tells a name inside that starts with ".." (a temp file of
// ".orc.json.proof") from a path that leaves the state dir.
func TestSafePathInsideOutside(t *testing.T) {
	d := newDir(t)
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{"..orc.json.proof.tmp-120531764", true},
		{"...", true},
		{"sess/..checkpoint.md.tmp-1", true},
		{"orc.json", true},
		{"..", false},
		{"../x", false},
		{"../.orc2/orc.json", false},
	} {
		err := d.safePath(filepath.Join(d.Path, filepath.FromSlash(c.path)))
		if (err == nil) != c.ok {
			t.Errorf("safePath(%q) = %v, want ok=%v", c.path, err, c.ok)
		}
	}
}

// A journal rewritten in place (repair --redact) is chained to by the new
// line and pinned by the new anchor, while what was edited outside
// orc-state before is still judged against the old journal and recorded.
func TestRewriteJournalKeepsOutsideEvidence(t *testing.T) {
	d := newDir(t)
	mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
	mustUpdate(t, d, "phase set", setPhase(2))
	jp := d.File("main", journal.FileName)
	cp := d.File("main", CheckpointFile)
	old, _ := os.ReadFile(jp)
	data, _ := os.ReadFile(cp)
	if err := os.WriteFile(cp, append(data, "by hand\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := func(line []byte) []byte {
		return bytes.Replace(line, []byte(`"init":"main"`), []byte(`"init":"[gone]"`), 1)
	}
	mustUpdate(t, d, "repair", func(tx *Tx) error {
		tx.RewriteJournal("main", journal.Rewrite(old, edit))
		tx.Touch("main", map[string]string{"fix": "redact", "oldTip": journal.Sum(journal.TailOf(old).Raw)})
		return nil
	})
	got, _ := os.ReadFile(jp)
	entries, problems, err := journal.Parse(got)
	if err != nil || len(problems) != 0 || len(entries) != 3 {
		t.Fatalf("journal after the rewrite: %d entries, %v, %v\n%s", len(entries), problems, err, got)
	}
	if bytes.Contains(got, []byte(`"init":"main"`)) {
		t.Fatalf("the rewrite did not land:\n%s", got)
	}
	if last := entries[2]; strings.Join(last.Outside, ",") != "checkpoint" {
		t.Fatalf("outside = %v; want the hand edit of the checkpoint", last.Outside)
	}
	anchor, _ := os.ReadFile(d.File("main", journal.AnchorName))
	if p := journal.CheckAnchor(anchor, journal.TailOf(got)); p != nil {
		t.Fatalf("anchor: %s", p.Message)
	}
}

// At most two fsyncs make a mutation durable, whatever the log holds: the
// record's, and, when the log is due for a checkpoint, the change writes a
// large file or moves a folder, or the log's last record moved one, one
// flush of the file system before the record (Linux's syncfs), after which
// the record is the log's only line. Elsewhere a checkpoint fsyncs file by
// file.
func TestCheckpointIsOneFlushBeforeTheRecord(t *testing.T) {
	if !atomicfile.CanSyncAll {
		t.Skip("no syncfs here: a checkpoint fsyncs every file the log names")
	}
	chunk := bytes.Repeat([]byte("x"), largeFile-1) // carried in its record, the largest that is
	big := bytes.Repeat([]byte("y"), largeFile)
	cases := []struct {
		name  string
		setup int    // files just under largeFile written first (three, after init, make the log due)
		data  []byte // what the mutation writes
		flush bool
		move  bool // the session's folder is moved first (another record)
	}{
		{"small change, small log", 0, []byte("{}"), false, false},
		{"small change, log due", 3, []byte("{}"), true, false},
		{"large file, small log", 0, big, true, false},
		{"large file, log due", 3, big, true, false},
		{"small change after a move", 0, []byte("{}"), true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDir(t)
			mustUpdate(t, d, "init", func(tx *Tx) error { return addSession(tx, "main") })
			for i := 0; i < c.setup; i++ {
				mustUpdate(t, d, "artifact put", func(tx *Tx) error {
					tx.Write("main", fmt.Sprintf("chunk%d.txt", i), chunk)
					return nil
				})
			}
			id := "main"
			if c.move {
				mustUpdate(t, d, "migrate", func(tx *Tx) error { tx.RenameSession("main", "moved"); return nil })
				id = "moved"
			}
			steps := stepLog(t, d)
			before := atomicfile.Syncs()
			mustUpdate(t, d, "artifact put", func(tx *Tx) error {
				tx.Write(id, "new.json", c.data)
				return nil
			})
			if n := atomicfile.Syncs() - before; n > 2 {
				t.Fatalf("%d fsyncs, want at most 2:\n%s", n, strings.Join(*steps, "\n"))
			}
			flushed := slices.Index(*steps, "syncfs .")
			recorded := slices.Index(*steps, "fsync "+IntentFile)
			if (flushed >= 0) != c.flush || flushed > recorded {
				t.Fatalf("flush at %d, record's fsync at %d, want a flush %v before it:\n%s", flushed, recorded, c.flush, strings.Join(*steps, "\n"))
			}
			st, err := d.readLog()
			if err != nil {
				t.Fatal(err)
			}
			if c.flush && len(st.txs) != 1 {
				t.Fatalf("the log holds %d records after a flush, want only the new one", len(st.txs))
			}
			if got, _ := os.ReadFile(d.File(id, "new.json")); !bytes.Equal(got, c.data) {
				t.Fatalf("new.json: %d bytes, want %d", len(got), len(c.data))
			}
		})
	}
}
