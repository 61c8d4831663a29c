package state

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/atomicfile"
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
}

// Tx is one mutation in progress: the registry as re-read under the lock
// and the session files staged for writing. Nothing reaches the disk unless
// the function passed to Update returns nil.
type Tx struct {
	dir      *Dir
	opts     Options
	Reg      *registry.Registry
	regDirty bool
	staged   map[string][]byte // path → new content
	order    []string
	touched  map[string]json.RawMessage // sessionId → journal args
	removed  map[string]bool
	appends  [][2]string // {path, data} for append-only files
	renames  [][2]string
	deletes  []string
	original map[string]string // sessionId → sha256 of its entry before the change
	outside  map[string][]string
	tombs    [][]byte
	// Raw is orc.json as read under the lock, with Options.RawRegistry.
	Raw []byte
}

// Update runs fn under the state lock on a freshly read registry, then
// writes what fn staged atomically (session files, then orc.json) and
// appends one journal line per touched session. When fn fails nothing is
// written.
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
	if !lockExists {
		// No state yet, or state written by another tool: a verb that
		// refuses, or has nothing to do, must create nothing (no .orc/, no
		// lock file, no info/exclude line). Run it once without the lock
		// against what is on disk; only if it would write is the verb run
		// for real under the lock.
		dry := newTx(d, opts)
		if err := dry.load(); err != nil {
			return err
		}
		if err := fn(dry); err != nil || !dry.writes() {
			return err
		}
		if err := d.ensure(); err != nil {
			return err
		}
	}
	l, err := lock.Acquire(ctx, d.Path, opts.Verb, opts.LockTimeout)
	if err != nil {
		var te *lock.TimeoutError
		if errors.As(err, &te) {
			return &fault.Error{Code: fault.Locked, Msg: te.Error(), Err: err,
				Hint: "another orc-state is writing; retry, or raise --lock-timeout"}
		}
		return fault.Wrap(fault.Invalid, err, "cannot lock the state dir")
	}
	defer l.Release()
	tx := newTx(d, opts)
	if err := tx.load(); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.commit()
}

func newTx(d *Dir, opts Options) *Tx {
	return &Tx{dir: d, opts: opts, staged: map[string][]byte{},
		touched: map[string]json.RawMessage{}, removed: map[string]bool{},
		original: map[string]string{}, outside: map[string][]string{}}
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

// preflight refuses, before anything is written, a write that would go
// through a symlink or onto something that is not a regular file: a
// session folder, its files/ folder, or a target (the journal included)
// that leads outside the state dir. Checking only at the last step would
// leave the transaction half-written.
func (tx *Tx) preflight() error {
	paths := append([]string{}, tx.order...)
	for _, a := range tx.appends {
		paths = append(paths, a[0])
	}
	for id := range tx.touched {
		if !tx.removed[id] {
			paths = append(paths, tx.dir.File(id, journal.FileName))
		}
	}
	for _, p := range paths {
		if err := tx.dir.safePath(p); err != nil {
			return err
		}
	}
	return nil
}

// noticeOutside compares, before anything is written, each touched
// session's files and entry with its journal's last digests.
func (tx *Tx) noticeOutside() error {
	for id := range tx.touched {
		orig, noted := tx.original[id]
		if tx.removed[id] || (noted && orig == "") {
			continue
		}
		last, ok, err := journal.Last(tx.dir.File(id, journal.FileName))
		if err != nil || !ok {
			continue
		}
		now, err := tx.dir.digests(tx.Reg, id)
		if err != nil {
			return err
		}
		if noted {
			now.Entry = orig
		}
		tx.outside[id] = journal.Changed(last.Digests, now)
	}
	return nil
}

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
	tx.Reg, _, err = tx.dir.ReadRegistry()
	return err
}

// writes reports whether the transaction would change anything on disk.
func (tx *Tx) writes() bool {
	return tx.regDirty || len(tx.order) > 0 || len(tx.appends) > 0 || len(tx.touched) > 0 ||
		len(tx.removed) > 0 || len(tx.renames) > 0 || len(tx.deletes) > 0 || len(tx.tombs) > 0
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
// first, then disk); nil when absent.
func (tx *Tx) Read(id, name string) ([]byte, error) {
	path := tx.dir.File(id, name)
	if data, ok := tx.staged[path]; ok {
		return data, nil
	}
	for _, r := range tx.renames {
		if r[1] == id {
			return tx.dir.ReadFile(r[0], name) // not moved yet
		}
	}
	return tx.dir.ReadFile(id, name)
}

// Write stages a session file.
func (tx *Tx) Write(id, name string, data []byte) {
	path := tx.dir.File(id, name)
	if _, ok := tx.staged[path]; !ok {
		tx.order = append(tx.order, path)
	}
	tx.staged[path] = data
}

// Append stages an append to an append-only session file (progress.md):
// its earlier bytes are never rewritten.
func (tx *Tx) Append(id, name string, data []byte) {
	tx.appends = append(tx.appends, [2]string{tx.dir.File(id, name), string(data)})
}

// WriteState stages a file given relative to the state dir (outside any
// files/ folder: workspace-link.json).
func (tx *Tx) WriteState(rel string, data []byte) {
	path := filepath.Join(tx.dir.Path, rel)
	if _, ok := tx.staged[path]; !ok {
		tx.order = append(tx.order, path)
	}
	tx.staged[path] = data
}

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
func (tx *Tx) RemoveSession(s registry.Session) {
	tomb, _ := json.Marshal(map[string]any{"at": registry.Now(), "actor": tx.opts.Actor, "verb": tx.opts.Verb, "entry": s})
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

// RemoveFile stages the removal of a file under the state dir (a stale
// temp file), given relative to it.
func (tx *Tx) RemoveFile(rel string) { tx.deletes = append(tx.deletes, rel) }

// RenameSession stages moving a session folder from old to new (migrate),
// done before any file is written.
func (tx *Tx) RenameSession(old, new string) { tx.renames = append(tx.renames, [2]string{old, new}) }

// commit writes staged files, then the registry, then the journal lines.
func (tx *Tx) commit() error {
	if err := tx.preflight(); err != nil {
		return err
	}
	if err := tx.noticeOutside(); err != nil {
		return err
	}
	for _, r := range tx.renames {
		if err := os.Rename(filepath.Join(tx.dir.Path, r[0]), filepath.Join(tx.dir.Path, r[1])); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot move session folder %s to %s", r[0], r[1])
		}
	}
	for _, path := range tx.order {
		if err := atomicfile.MkdirAll(filepath.Dir(path)); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot create %s", filepath.Dir(path))
		}
		if err := atomicfile.WriteFile(path, tx.staged[path], 0o644); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot write %s", path)
		}
	}
	for _, a := range tx.appends {
		if err := atomicfile.MkdirAll(filepath.Dir(a[0])); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot create %s", filepath.Dir(a[0]))
		}
		if err := atomicfile.Append(a[0], []byte(a[1]), 0o644); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot append to %s", a[0])
		}
	}
	if tx.regDirty {
		if err := tx.Reg.Validate(); err != nil {
			return fault.Invalidf("refusing to write an invalid registry: %v", err)
		}
		data, err := tx.Reg.Marshal()
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(tx.dir.RegistryPath(), data, 0o644); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot write orc.json")
		}
	}
	ids := make([]string, 0, len(tx.touched))
	for id := range tx.touched {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if tx.removed[id] {
			continue
		}
		if err := tx.journal(id); err != nil {
			return err
		}
	}
	for _, t := range tx.tombs {
		if err := atomicfile.Append(filepath.Join(tx.dir.Path, RemovedFile), t, 0o644); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot append to %s", RemovedFile)
		}
	}
	for _, rel := range tx.deletes {
		if err := os.Remove(filepath.Join(tx.dir.Path, rel)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fault.Wrap(fault.Invalid, err, "cannot remove %s", rel)
		}
	}
	for id := range tx.removed {
		if err := os.RemoveAll(filepath.Join(tx.dir.Path, id)); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot remove the folder of %s", id)
		}
	}
	return nil
}

func (tx *Tx) journal(id string) error {
	dg, err := tx.dir.digests(tx.Reg, id)
	if err != nil {
		return err
	}
	e := journal.Entry{
		At: registry.Now(), Actor: tx.opts.Actor, Verb: tx.opts.Verb,
		Args: tx.touched[id], Digests: dg, Outside: tx.outside[id],
	}
	if err := atomicfile.MkdirAll(tx.dir.FilesDir(id)); err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot create %s", tx.dir.FilesDir(id))
	}
	if err := journal.Append(tx.dir.File(id, journal.FileName), e); err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot append to the journal of %s", id)
	}
	return nil
}

// Digests returns the sha256 of the session's entry and files as they are
// on disk now (used by the journal and by verify).
func (d *Dir) digests(reg *registry.Registry, id string) (journal.Digests, error) {
	var dg journal.Digests
	if s := findID(reg, id); s != nil {
		dg.Entry = journal.Sum(s.Canonical())
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{CheckpointFile, &dg.Checkpoint}, {LedgerFile, &dg.Ledger}, {DecisionsFile, &dg.Decisions}} {
		data, err := d.ReadFile(id, f.name)
		if err != nil {
			return dg, err
		}
		*f.dst = journal.Sum(data)
	}
	return dg, nil
}

// Digests is the exported form of digests, for verify.
func (d *Dir) Digests(reg *registry.Registry, id string) (journal.Digests, error) {
	return d.digests(reg, id)
}

func findID(reg *registry.Registry, id string) *registry.Session {
	for i := range reg.Sessions {
		if reg.Sessions[i].SessionID == id {
			return &reg.Sessions[i]
		}
	}
	return nil
}
