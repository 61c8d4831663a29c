// Package state is orc-state's single writer: it resolves the state dir,
// reads the registry and a session's files without a lock, and runs every
// mutation as one transaction ([Dir.Update]). No other package writes under
// .orc/.
//
// # The transaction
//
// Update takes the lock, re-reads orc.json strictly, and runs the verb's
// function on the in-memory state; the function stages files through the
// Tx. Then the transaction writes, in these stages (the step-by-step
// crash argument is docs/reliability.md section 6):
//
//  1. Prepare (nothing visible yet). Every target is checked (no symlink,
//     a regular file, inside the state dir); every new file's content,
//     including orc.json, each session's journal anchor and any new
//     append-only file, is written to a temp file beside its target, not
//     fsynced; every existing append-only file (journal.jsonl, progress.md,
//     removed.jsonl) is opened for writing; every folder to delete is
//     probed. A full disk, a read-only file or folder, or a symlink fails
//     here: the temps are removed and the verb exits 3 (2 for refused
//     input), nothing written.
//  2. Record. The write-ahead record ([Intent]) lists every step, in order,
//     with every new file's whole content and every appended byte, and the
//     machine's boot id; it is one line of the log .orc/.transaction.json
//     (wal.go), fsynced: the transaction's one fsync, after which it is
//     durable. Then the appends are made, unsynced; a failed append is cut
//     back and the record cut out of the log (both fsynced) and the whole
//     transaction undone (exit 3, nothing written).
//  3. Commit point, then apply: folder moves, the renames of the temps
//     over their targets (session files, then orc.json), removals, no
//     fsync, then a marker line says the record was applied. A failure
//     here exits 6 (fault.Interrupted): the record stays unmarked, verify
//     and doctor name the interrupted transaction (never as an outside
//     edit), and repair, or the next writer before its own change, does
//     every step again from the record (each is a no-op when already
//     done), so the state becomes exactly what the transaction would have
//     written. The same command run again after that is recognised (same
//     verb, same journaled arguments) and not applied twice. After a
//     restart of the machine (another boot id), which may have lost any
//     unsynced write, every record of the log is done again; readers
//     refuse (exit 6) until then.
//  4. Checkpoint, when due. On Linux (the log's size or count, a large
//     file, a folder moved): one syncfs of the state dir's file system
//     before the next record, which then replaces the log's lines, so a
//     mutation costs at most two fsyncs; after a redaction, a syncfs and
//     the log's removal. Elsewhere (the log's size or count, a folder
//     moved or removed, a redaction): every file and folder the log names
//     is fsynced after the change, and the log removed.
//
// Each touched session gets one journal line with the digests of its files
// after the change, and its journal.anchor is rewritten to the new tip.
// A writer compares the files and the anchor with the journal before it
// writes: what differs was changed outside orc-state and is recorded in the
// line (outside), so evidence is never laundered.
//
// # The rule for a verb's function
//
// The function may run twice: when the state dir has no .lock (no state
// yet, or state written by another tool), Update first runs it without the
// lock, so a verb that refuses or has nothing to do creates nothing, and
// runs it again under the lock only if it staged a write. So the function
// has no effect outside the Tx: it never prints (it writes to Tx.Stdout and
// Tx.Stderr, which Update prints once, after the last run succeeded; the
// CLI points its streams there while the function runs) and never writes a
// file itself.
//
// # Platforms
//
// All file-system steps go through internal/atomicfile: on Windows no
// directory is fsynced, readers open with delete sharing so a rename over
// a file being read succeeds, and a rename refused by a sharing violation
// is retried for a bounded time. A folder deletion that Windows refuses
// midway (a file held open) is a failure after the commit point: exit 6,
// and repair finishes it.
package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/registry"
)

// Names of the files orc-state owns at the top of the state dir (a
// session's files are in SessionFiles).
const (
	RegistryFile = "orc.json"
	RemovedFile  = "removed.jsonl"
	// ProofFile holds registry.Proof of the orc.json last written, so a
	// reader can tell the bytes are the ones validated (see registry.Read).
	ProofFile = ".orc.json.proof"
	// ArchiveFolder keeps what destructive verbs removed when the state
	// dir is not the repository's own (internal/archive):
	// .archive/<sessionId>/<time>/ and its .archive/<sessionId>/<time>.json.
	ArchiveFolder = ".archive"
)

// Dir is a resolved state dir.
type Dir struct {
	Path string
	// Git is the layout of the repository the command runs in; nil when
	// there is none (allowed only with --dir or ORC_STATE_DIR).
	Git *gitx.Layout
	// Clock is the time recorded timestamps carry (the journal's at,
	// updatedAt, a record's, an archive's); nil is the real time. The run
	// sets it (cli.Process.Stamp); a test fixes it.
	Clock func() time.Time
	held  *atomicfile.Root // while a transaction holds the lock (hold)
}

// Time is the time a write made now records.
func (d *Dir) Time() time.Time {
	if d.Clock == nil {
		return time.Now()
	}
	return d.Clock()
}

// Now is Time as recorded timestamps are written (registry.Stamp).
func (d *Dir) Now() string { return registry.Stamp(d.Time()) }

// RegistryPath is the path of orc.json.
func (d *Dir) RegistryPath() string { return filepath.Join(d.Path, RegistryFile) }

// FilesDir is a session's files/ folder.
func (d *Dir) FilesDir(id string) string { return filepath.Join(d.Path, id, "files") }

// File is the path of a session file.
func (d *Dir) File(id, name string) string { return filepath.Join(d.FilesDir(id), name) }

// checkDir refuses a state dir that is not a plain directory.
func (d *Dir) checkDir() (exists bool, err error) {
	st, err := os.Lstat(d.Path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fault.Wrap(fault.Invalid, err, "cannot read the state dir")
	}
	if !st.IsDir() {
		return false, fault.Invalidf("state dir %s is not a directory", d.Path).
			WithHint("move it away, or pass --dir to use another state dir")
	}
	return true, nil
}

// made is what ensure created, so that a transaction that writes nothing
// after all can leave no trace.
type made struct {
	dirs        []string // created, outermost first
	exclude     string   // the info/exclude file appended to ("" for none)
	excludeSize int64    // its length before (-1: it did not exist)
}

// undoEnsure removes what ensure created: the exclude line, the lock file
// when the caller holds the lock (a waiter notices the file is gone and
// takes a new one; a lock someone else holds is never deleted) and the
// state dir, if nothing else was put there.
func (d *Dir) undoEnsure(m *made, holding bool) {
	if m == nil {
		return
	}
	switch {
	case m.exclude == "":
	case m.excludeSize < 0:
		_ = os.Remove(m.exclude)
	default:
		_ = os.Truncate(m.exclude, m.excludeSize)
	}
	if holding {
		_ = os.Remove(filepath.Join(d.Path, lock.FileName))
	}
	for i := len(m.dirs) - 1; i >= 0; i-- {
		_ = os.Remove(m.dirs[i]) // only empty folders go
	}
}

// ReadRegistry reads orc.json strictly, without a lock. A missing file is an
// empty registry (exists false).
func (d *Dir) ReadRegistry() (reg *registry.Registry, exists bool, err error) {
	return d.ReadRegistryFor()
}

// ReadRegistryFor is ReadRegistry for a verb that needs only the entries
// whose sessionId or gitBranch is one of keys: when the proof beside
// orc.json vouches for its bytes, only those entries are decoded and the
// registry is partial (registry.Read); otherwise the whole file is parsed
// strictly. Without keys it reads every entry.
func (d *Dir) ReadRegistryFor(keys ...string) (reg *registry.Registry, exists bool, err error) {
	if _, err := d.checkDir(); err != nil {
		return nil, false, err
	}
	data, err := readRegularShared(d.RegistryPath())
	if errors.Is(err, os.ErrNotExist) {
		return &registry.Registry{Schema: registry.Schema, Sessions: []registry.Session{}}, false, nil
	}
	if err != nil {
		return nil, false, fault.Wrap(fault.Invalid, err, "cannot read orc.json").WithHint("run orc-state doctor")
	}
	if d.restartedSince() {
		if err := d.recoverAfterRestart(); err != nil {
			return nil, true, err
		}
		if data, err = readRegularShared(d.RegistryPath()); err != nil {
			return nil, true, fault.Wrap(fault.Invalid, err, "cannot read orc.json").WithHint("run orc-state doctor")
		}
	}
	proof, _ := atomicfile.ReadFile(filepath.Join(d.Path, ProofFile)) // missing or unreadable: no proof
	r, err := registry.Read(data, proof, keys...)
	if err != nil {
		if in, _ := d.Pending(); in != nil && in.Invalid == nil {
			// migrate's registry, read before the interrupted rename of orc.json.
			return nil, true, &fault.Error{Code: fault.Interrupted, Err: err,
				Msg:  "orc.json is between two states: " + in.Describe() + " was interrupted",
				Hint: "run orc-state repair (completes it)"}
		}
		return nil, true, err
	}
	return r, true, nil
}

// root is the state dir as the one resolution of every path a
// transaction writes (atomicfile.Root): beneath it, through no symlink.
// While a transaction holds the lock its folders stay open (hold).
func (d *Dir) root() atomicfile.Root {
	if d.held != nil {
		return *d.held
	}
	return atomicfile.Root{Dir: d.Path}
}

// hold keeps the folders the steps open open until the returned function
// is called (atomicfile.Root.Hold): for the holder of the lock, under
// which nothing else changes them.
func (d *Dir) hold() func() {
	root, release := atomicfile.Root{Dir: d.Path}.Hold()
	d.held = &root
	return func() {
		d.held = nil
		release()
	}
}

// inside is path relative to the state dir; an error for a path outside.
func (d *Dir) inside(path string) (string, error) {
	rel, err := filepath.Rel(d.Path, path)
	// IsLocal, not a ".." prefix: "..orc.json.proof.tmp-1" is a name inside.
	if err != nil || !filepath.IsLocal(rel) {
		return "", fault.Invalidf("%s is outside the state dir", path)
	}
	return rel, nil
}

// safePath refuses a path under the state dir that passes through a
// symlink, or whose final element exists and is not a regular file. It
// names the offending component; the step itself then acts through
// atomicfile.Root, which resolves the path the same way in one call.
func (d *Dir) safePath(path string) error { return d.walk(path, true) }

// walk refuses a path that leaves the state dir or passes through a
// symlink (its final element included); with regular, also a final
// element that exists and is not a regular file.
func (d *Dir) walk(path string, regular bool) error {
	rel, err := d.inside(path)
	if err != nil {
		return err
	}
	p := d.Path
	parts := strings.Split(rel, string(filepath.Separator))
	root := d.root()
	for i, part := range parts {
		p = filepath.Join(p, part)
		if i < len(parts)-1 && root.Resolved(filepath.Join(parts[:i+1]...)) {
			continue // a folder the transaction holds open was resolved so already
		}
		st, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot inspect %s", p)
		}
		last := i == len(parts)-1
		switch {
		case st.Mode()&os.ModeSymlink != 0:
			return fault.Invalidf("%s is a symlink; orc-state never reads or writes through one", p).WithHint("replace it with a plain file or folder, then run orc-state doctor")
		case last && regular && !st.Mode().IsRegular():
			return fault.Invalidf("%s is not a regular file", p).WithHint("run orc-state doctor")
		case !last && !st.IsDir():
			return fault.Invalidf("%s is not a folder", p).WithHint("run orc-state doctor")
		}
	}
	return nil
}

// ReadFile reads a session file; a missing file is (nil, nil).
func (d *Dir) ReadFile(id, name string) ([]byte, error) { return d.readInside(d.File(id, name)) }

// ReadStateFile reads a file at the top of the state dir (removed.jsonl);
// a missing file is (nil, nil).
func (d *Dir) ReadStateFile(name string) ([]byte, error) {
	return d.readInside(filepath.Join(d.Path, name))
}

// readInside reads path under the state dir through no symlink (safePath);
// a missing file is (nil, nil).
func (d *Dir) readInside(path string) ([]byte, error) {
	if err := d.safePath(path); err != nil {
		return nil, err
	}
	rel, _ := d.inside(path) // safePath saw it inside
	data, err := d.root().ReadFile(rel)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read %s", path)
	}
	return data, nil
}

// readRegular reads a file, refusing a symlink or anything but a regular
// file: a symlink inside .orc/ must never lead a read or write outside it.
func readRegular(path string) ([]byte, error) {
	return readRegularWith(path, atomicfile.ReadFile)
}

// readRegularShared is readRegular for bytes that are only read, and may be
// kept (orc.json): a large file is mapped, not copied (atomicfile.ReadOnly).
func readRegularShared(path string) ([]byte, error) {
	return readRegularWith(path, atomicfile.ReadOnly)
}

func readRegularWith(path string, read func(string) ([]byte, error)) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (a symlink or a directory)", path)
	}
	return read(path)
}

// recoverAfterRestart does the log's records again for a reader that
// found records from before a restart (restartedSince), as the next
// writer would: the files they name may be old or torn, and a read of
// them must wait for the replay, not report them. It takes the lock for
// the replay only, waiting at most readerRecoveryWait; when the lock
// stays busy, the state dir is read-only or the replay fails, the read is
// refused (exit 6) and names repair.
func (d *Dir) recoverAfterRestart() error {
	_, err := d.Finish(context.Background(), Options{Verb: "recover", LockTimeout: readerRecoveryWait})
	if err == nil && !d.restartedSince() {
		return nil
	}
	return &fault.Error{Code: fault.Interrupted, Err: errors.Join(errors.New("restarted"), err),
		Msg:  "the machine restarted after a change was recorded in " + IntentFile + " and before its files were known durable, and they could not be completed now: they may be old or torn",
		Hint: "run orc-state repair (does the recorded changes again; the next command that writes does too)"}
}

// readerRecoveryWait bounds how long a reader waits for the lock to
// replay the log after a restart: a writer holding it replays it itself.
var readerRecoveryWait = 2 * time.Second
