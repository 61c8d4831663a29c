package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/lock"
	"github.com/orc-state/orc-state/registry"
)

// Options are the settings of one mutation.
type Options struct {
	Verb        string        // e.g. "phase set", journaled
	Actor       string        // journaled
	LockTimeout time.Duration // how long to wait for the lock
	// RawRegistry skips the strict read: the transaction starts with Raw set
	// to orc.json's bytes (nil when absent) and Reg nil (migrate only).
	RawRegistry bool
	// Stdout and Stderr receive what the verb's function wrote to
	// Tx.Stdout and Tx.Stderr, once, after the transaction succeeded
	// (nil: discarded).
	Stdout, Stderr io.Writer
	// Keys, when set, say the verb needs only the entries whose sessionId
	// or gitBranch is one of them: Reg may then be partial
	// (registry.Read), and the verb must not add or remove entries.
	Keys []string
}

// Tx is one mutation in progress: the registry as re-read under the lock
// and the session files staged for writing. Nothing reaches the disk unless
// the function passed to Update returns nil.
type Tx struct {
	dir      *Dir
	log      *logState // the log as read under the lock, when nothing changed it since
	opts     Options
	Reg      *registry.Registry
	regDirty bool
	staged   map[string][]byte // path → new content
	order    []string
	touched  map[string]json.RawMessage // sessionId → journal args
	removed  map[string]bool
	appends  []appendReq
	renames  [][2]string
	deletes  []string
	archives []string          // archive folders to delete, relative to the state dir
	original map[string]string // sessionId → sha256 of its entry before the change
	// rewritten are the sessions whose journal is rewritten in place
	// (RewriteJournal): outside edits are judged against the old one.
	rewritten map[string]bool
	tombs     [][]byte
	disk      map[string][]byte // session files as read from disk (readDisk)
	out, err  bytes.Buffer
	// Raw is orc.json as read under the lock, with Options.RawRegistry.
	Raw []byte
}

type appendReq struct {
	path string
	data []byte
}

// Update runs one mutation: fn changes the in-memory state through tx, and
// Update writes what it staged as one transaction (see the package doc):
// under the state lock, on a freshly read registry, proven writable before
// anything is visible, recorded before acting, journaled. When fn fails,
// nothing is written.
//
// fn may run twice. When the state dir has no .lock yet (no state, or state
// written by another tool), fn first runs without the lock against what is
// on disk, so that a verb that refuses, or has nothing to do, creates
// nothing; only if that run staged a write is fn run again, for real, under
// the lock. So fn must have no effect outside tx: it must not print (what
// it writes to tx.Stdout and tx.Stderr is printed once, after the last run
// succeeded), and it must not write files.
func (d *Dir) Update(ctx context.Context, opts Options, fn func(tx *Tx) error) error {
	exists, err := d.checkDir()
	if err != nil {
		return err
	}
	lockExists := false
	if exists {
		_, err := os.Lstat(filepath.Join(d.Path, lock.FileName))
		lockExists = err == nil
	}
	var made *made
	if !lockExists {
		dry := newTx(d, opts)
		if err := dry.load(); err != nil {
			return err
		}
		if err := fn(dry); err != nil {
			return err
		}
		if !dry.writes() {
			return dry.flush()
		}
		if err := dry.refuseCredentials(); err != nil {
			return err
		}
		if made, err = d.ensure(); err != nil {
			return err
		}
	}
	l, err := lock.Acquire(ctx, d.Path, opts.Verb, opts.LockTimeout)
	if err != nil {
		d.undoEnsure(made, false)
		var te *lock.TimeoutError
		if errors.As(err, &te) {
			return &fault.Error{Code: fault.Locked, Msg: te.Error(), Err: err,
				Hint: "another orc-state is writing; retry, or raise --lock-timeout"}
		}
		return fault.Wrap(fault.Invalid, err, "cannot lock the state dir")
	}
	defer l.Release()
	defer d.hold()()
	// A transaction an earlier writer left interrupted is completed first:
	// until then its files are between two states.
	done, log, err := d.finishLog()
	if err != nil {
		return err
	}
	tx := newTx(d, opts)
	tx.log = log
	err = tx.load()
	if err == nil {
		err = fn(tx)
	}
	if err == nil && done.sameCommand(tx) {
		return tx.flush() // the interrupted command, run again: it is done now
	}
	if err == nil {
		err = tx.commit()
	}
	if err != nil {
		if fault.Code(err) != fault.Interrupted {
			d.undoEnsure(made, true) // nothing was written: leave no state dir either
		}
		return err
	}
	return tx.flush()
}

func newTx(d *Dir, opts Options) *Tx {
	return &Tx{dir: d, opts: opts, staged: map[string][]byte{},
		touched: map[string]json.RawMessage{}, removed: map[string]bool{},
		original: map[string]string{}, rewritten: map[string]bool{}}
}

// Stdout is where the verb's function writes its output; it is printed
// after the transaction succeeded, never from inside it.
func (tx *Tx) Stdout() io.Writer { return &tx.out }

// Stderr is where the verb's function writes warnings; like Stdout, they
// are printed after the transaction succeeded.
func (tx *Tx) Stderr() io.Writer { return &tx.err }

// flush prints the transaction's output.
func (tx *Tx) flush() error {
	for _, o := range []struct {
		w   io.Writer
		buf *bytes.Buffer
	}{{tx.opts.Stderr, &tx.err}, {tx.opts.Stdout, &tx.out}} {
		if o.w != nil && o.buf.Len() > 0 {
			if _, err := o.w.Write(o.buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// NoteOriginal records an entry as it was before the verb changes it, so
// that an edit made outside orc-state before this change is still noticed.
func (tx *Tx) NoteOriginal(s *registry.Session) {
	if _, ok := tx.original[s.SessionID]; !ok {
		tx.original[s.SessionID] = journal.Sum(s.Canonical())
	}
}

// Replace marks a session whose files are replaced wholesale (sync pull):
// its previous journal is superseded, so outside edits are not compared.
func (tx *Tx) Replace(id string) { tx.original[id] = "" }

// load reads the registry the transaction starts from.
func (tx *Tx) load() error {
	var err error
	if tx.opts.RawRegistry {
		tx.Raw, err = readRegular(tx.dir.RegistryPath())
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fault.Wrap(fault.Invalid, err, "cannot read orc.json")
		}
		return nil
	}
	tx.Reg, _, err = tx.dir.ReadRegistryFor(tx.opts.Keys...)
	return err
}

// writes reports whether the transaction would change anything on disk.
func (tx *Tx) writes() bool {
	return tx.regDirty || len(tx.order) > 0 || len(tx.appends) > 0 || len(tx.touched) > 0 ||
		len(tx.removed) > 0 || len(tx.renames) > 0 || len(tx.deletes) > 0 || len(tx.tombs) > 0 || len(tx.archives) > 0
}

// Dir is the state dir the transaction writes to.
func (tx *Tx) Dir() *Dir { return tx.dir }

// RegistryChanged marks orc.json for rewriting.
func (tx *Tx) RegistryChanged() { tx.regDirty = true }

// Touch records that the session changed, with the arguments to journal.
func (tx *Tx) Touch(id string, args any) {
	raw, err := json.Marshal(args)
	if err != nil || string(raw) == "null" {
		raw = nil
	}
	tx.touched[id] = raw
}

// Read returns a session file as the transaction sees it (staged content
// first, nothing when it removes the file, then disk); nil when absent.
// The bytes may be shared with later reads: the caller must not change
// them.
func (tx *Tx) Read(id, name string) ([]byte, error) {
	path := tx.dir.File(id, name)
	if data, ok := tx.staged[path]; ok {
		return data, nil
	}
	for _, rel := range tx.deletes {
		if filepath.Join(tx.dir.Path, rel) == path {
			return nil, nil // removed by this transaction
		}
	}
	return tx.readDisk(tx.diskID(id), name) // before a move, where it is now
}

// readDisk reads a session file as it is on disk, once per transaction:
// the verb's function, the check for outside edits and the journal's
// digests after the change each ask for the same files, which nothing
// else changes while the lock is held (and a run without the lock is a
// dry run that writes nothing). The bytes are shared: callers never
// change them.
func (tx *Tx) readDisk(dirID, name string) ([]byte, error) {
	path := tx.dir.File(dirID, name)
	if data, ok := tx.disk[path]; ok {
		return data, nil
	}
	data, err := tx.dir.ReadFile(dirID, name)
	if err != nil {
		return nil, err
	}
	if tx.disk == nil {
		tx.disk = map[string][]byte{}
	}
	tx.disk[path] = data
	return data, nil
}

// Write stages a session file.
func (tx *Tx) Write(id, name string, data []byte) { tx.stage(tx.dir.File(id, name), data) }

func (tx *Tx) stage(path string, data []byte) {
	if _, ok := tx.staged[path]; !ok {
		tx.order = append(tx.order, path)
	}
	tx.staged[path] = data
}

// RewriteJournal stages a session's journal rewritten in place, the one
// exception to append-only (repair --redact, see journal.Rewrite). The
// line the transaction journals follows the new bytes, and what changed
// outside orc-state before it is still judged against the journal on disk
// and recorded in that line.
func (tx *Tx) RewriteJournal(id string, data []byte) {
	tx.Write(id, journal.FileName, data)
	tx.rewritten[id] = true
}

// Append stages an append to an append-only session file (progress.md):
// its earlier bytes are never rewritten.
func (tx *Tx) Append(id, name string, data []byte) {
	tx.appends = append(tx.appends, appendReq{tx.dir.File(id, name), data})
}

// AppendState stages an append to an append-only file given relative to
// the state dir, outside any session (the sync log).
func (tx *Tx) AppendState(rel string, data []byte) {
	tx.appends = append(tx.appends, appendReq{filepath.Join(tx.dir.Path, rel), data})
}

// WriteState stages a file given relative to the state dir (outside any
// files/ folder: workspace-link.json).
func (tx *Tx) WriteState(rel string, data []byte) { tx.stage(filepath.Join(tx.dir.Path, rel), data) }

// Staged reports whether any session file is staged for writing.
func (tx *Tx) Staged() bool { return len(tx.order) > 0 }

// Body returns the session's checkpoint body as the transaction sees it:
// the default body when there is no checkpoint yet.
func (tx *Tx) Body(id string) ([]byte, error) {
	old, err := tx.Read(id, CheckpointFile)
	if err != nil || old == nil {
		return checkpoint.DefaultBody(), err
	}
	return checkpoint.Parse(old).Body, nil
}

// Mirror regenerates the session's checkpoint frontmatter from its entry,
// keeping the body byte-for-byte (the default body for a new file), and
// refuses a result over the file cap.
func (tx *Tx) Mirror(s *registry.Session) error {
	body, err := tx.Body(s.SessionID)
	if err != nil {
		return err
	}
	return tx.WriteCheckpoint(s, body)
}

// WriteCheckpoint stages checkpoint.md with the entry's frontmatter and body.
func (tx *Tx) WriteCheckpoint(s *registry.Session, body []byte) error {
	out, err := checkpoint.Render(Frontmatter(s), body)
	if err != nil {
		return fault.Usagef("%v", err)
	}
	if len(out) > checkpoint.MaxFileBytes {
		return fault.Usagef("checkpoint.md would be %d bytes; the cap is %d (%d over)",
			len(out), checkpoint.MaxFileBytes, len(out)-checkpoint.MaxFileBytes).
			WithHint("move history out of checkpoint.md with orc-state progress append -")
	}
	tx.Write(s.SessionID, CheckpointFile, out)
	return nil
}

// Frontmatter is the checkpoint mirror of a registry entry.
func Frontmatter(s *registry.Session) checkpoint.Frontmatter {
	return checkpoint.Frontmatter{
		Schema: registry.Schema, Command: s.Command, Branch: s.SessionID, GitBranch: s.GitBranch,
		Phase: s.Phase.String(), PhaseLabel: registry.Deref(s.PhaseLabel), TotalPhases: s.TotalPhases,
		Status: s.Status, JiraTicket: registry.Deref(s.JiraTicket), UpdatedAt: s.UpdatedAt,
	}
}

// RemoveSession stages the removal of a session: its entry, its folder, and
// a tombstone holding the final entry appended to removed.jsonl.
func (tx *Tx) RemoveSession(s registry.Session) { tx.RemoveSessionArchived(s, "") }

// RemoveSessionArchived is RemoveSession for a session kept in an archive
// (internal/archive) first: its tombstone names the archive.
func (tx *Tx) RemoveSessionArchived(s registry.Session, archive string) {
	fields := map[string]any{"at": tx.dir.Now(), "actor": tx.opts.Actor, "verb": tx.opts.Verb, "entry": s}
	if archive != "" {
		fields["archive"] = archive
	}
	tomb, _ := json.Marshal(fields)
	tx.tombs = append(tx.tombs, append(tomb, '\n'))
	tx.removed[s.SessionID] = true
	tx.Reg.Remove(s.SessionID)
	tx.regDirty = true
}

// Tombstone stages a line for removed.jsonl, the record of what was
// deleted.
func (tx *Tx) Tombstone(line []byte) { tx.tombs = append(tx.tombs, line) }

// RemoveFolder stages the removal of a folder under the state dir that no
// entry owns (an orphan).
func (tx *Tx) RemoveFolder(name string) { tx.removed[name] = true }

// RemoveArchive stages the removal of an archive folder,
// .archive/<sessionId>/<time>, and everything under it (cleanup
// --archives).
func (tx *Tx) RemoveArchive(rel string) { tx.archives = append(tx.archives, rel) }

// RemoveFile stages the removal of a file under the state dir (a stale
// temp file), given relative to it.
func (tx *Tx) RemoveFile(rel string) { tx.deletes = append(tx.deletes, rel) }

// RenameSession stages moving a session folder from old to new (migrate),
// done before any file is written.
func (tx *Tx) RenameSession(old, new string) { tx.renames = append(tx.renames, [2]string{old, new}) }

// Digests returns the sha256 of the session's entry and files as they are
// on disk now (used by verify).
func (d *Dir) Digests(reg *registry.Registry, id string) (journal.Digests, error) {
	return digestsOf(reg, id, func(name string) ([]byte, error) { return d.ReadFile(id, name) })
}

// digestsOf computes a session's digests with read supplying its files.
func digestsOf(reg *registry.Registry, id string, read func(name string) ([]byte, error)) (journal.Digests, error) {
	var dg journal.Digests
	if reg != nil {
		if s := findID(reg, id); s != nil {
			dg.Entry = journal.Sum(s.Canonical())
		}
	}
	for _, f := range SessionFiles {
		if f.Digest == "" {
			continue
		}
		data, err := read(f.Name)
		if err != nil {
			return dg, err
		}
		*dg.Field(f.Digest) = journal.Sum(data)
	}
	return dg, nil
}

func findID(reg *registry.Registry, id string) *registry.Session {
	for i := range reg.Sessions {
		if reg.Sessions[i].SessionID == id {
			return &reg.Sessions[i]
		}
	}
	return nil
}

// sortedKeys returns a map's keys in order, so every run of a transaction
// takes its steps in the same order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
