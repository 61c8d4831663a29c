package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/lock"
)

// IntentFile is the write-ahead log of the state dir (wal.go): the records
// of the transactions whose files are not yet known durable, one JSON line
// each. A record without its marker, or records from before a restart,
// name an interrupted transaction; an older orc-state wrote a single
// record there, which is completed the same way.
const IntentFile = ".transaction.json"

// Intent is the write-ahead record: everything a transaction does after it
// is written, in order, with every new file's content and every appended
// byte, so that it can be done again to the end.
type Intent struct {
	// Boot is the boot of the machine the record was written in (BootID);
	// Seq its place in the log; Applied, in a marker line, the Seq of the
	// record whose steps were all taken.
	Boot     string   `json:"boot,omitempty"`
	Seq      int64    `json:"seq,omitempty"`
	Applied  int64    `json:"applied,omitempty"`
	Verb     string   `json:"verb,omitempty"`
	Actor    string   `json:"actor"`
	At       string   `json:"at"`
	PID      int      `json:"pid"`
	Sessions []string `json:"sessions"` // the sessions it changes or removes
	// Args are the journaled arguments per session, so that the same
	// command run again after the interruption is recognised.
	Args  map[string]json.RawMessage `json:"args,omitempty"`
	Steps []Step                     `json:"steps"`
	Sync  []string                   `json:"sync"` // directories to fsync after the steps
	// Torn is set for a record that does not parse: the writer died while
	// writing it, before any change (nothing to complete).
	Torn bool `json:"-"`
	// Invalid says why the record is not one orc-state wrote (a step it
	// never takes, a path that leaves the state dir or passes through a
	// symlink): nothing of it is done again (see checkRecord).
	Invalid error `json:"-"`
	// Restart says the machine restarted since the record was written: its
	// files (and those of the records before it) may be old or torn.
	Restart bool `json:"-"`
	// wasApplied says its marker was written before the restart.
	wasApplied bool
	// loaded says a record read from the log has its metadata decoded
	// (logState.load): a scan of the log decodes only boot and seq.
	loaded bool
}

// Step is one change of a transaction. Paths are relative to the state dir,
// with forward slashes. Each step can be done again: done again, a step
// that already happened changes nothing.
type Step struct {
	Op   string `json:"op"`             // append, move, rename, remove, remove-all
	Path string `json:"path"`           // the file appended to, the folder moved, the temp file renamed, what is removed
	To   string `json:"to,omitempty"`   // move and rename: the new name
	Size int64  `json:"size,omitempty"` // append: the file's length before
	Data []byte `json:"data,omitempty"` // append: the bytes appended; rename: the content
	// Content says Data is a rename's whole content (a record of an older
	// orc-state renames only fsynced temp files).
	Content bool `json:"content,omitempty"`
}

// Touches reports whether the transaction changes or removes session id
// (a torn record touches nothing).
func (in *Intent) Touches(id string) bool {
	for _, s := range in.Sessions {
		if s == id {
			return true
		}
	}
	return false
}

// Paths are the state-dir-relative paths the transaction's steps name.
func (in *Intent) Paths() []string {
	var out []string
	for _, s := range in.Steps {
		out = append(out, s.Path)
		if s.To != "" {
			out = append(out, s.To)
		}
	}
	return out
}

// Describe names the transaction for a message.
func (in *Intent) Describe() string {
	if in.Invalid != nil {
		return "a transaction whose record orc-state cannot trust (" + in.Invalid.Error() + ")"
	}
	if in.Torn {
		return "a transaction whose record is incomplete (nothing of it was applied)"
	}
	if in.Restart {
		return fmt.Sprintf("%q (pid %d, started %s) and the transactions before it, recorded before the machine restarted", in.Verb, in.PID, in.At)
	}
	return fmt.Sprintf("%q (pid %d, started %s)", in.Verb, in.PID, in.At)
}

// Pending reads the record of an interrupted transaction: nil when there is
// none. A transaction in progress in another process (holding the lock)
// has one too; lock.Held tells them apart.
func (d *Dir) Pending() (*Intent, error) {
	st, err := d.readLog()
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read %s", IntentFile)
	}
	if st.legacy != nil {
		if !st.legacy.Torn {
			st.legacy.Invalid = d.checkRecord(st.legacy)
		}
		return st.legacy, nil
	}
	in := st.interrupted()
	if in == nil {
		return nil, nil
	}
	for _, tx := range st.replayed() {
		err := tx.Invalid
		if err == nil {
			err = d.checkRecord(tx)
		}
		if err != nil {
			in.Invalid = err
			break
		}
	}
	return in, nil
}

// replayed are the records a recovery does again: after a restart every
// record of the log (in order), otherwise the last, unmarked one.
func (st logState) replayed() []*Intent {
	if st.restarted() {
		if err := st.loadAll(); err != nil {
			return []*Intent{{Verb: "?", Invalid: err}}
		}
		return st.txs
	}
	if in := st.interrupted(); in != nil {
		return []*Intent{in}
	}
	return nil
}

// checkRecord refuses a record orc-state would not have written, before
// any of it is done: a step it never takes, or a path (a step's path or
// target, a folder to sync) that is not a clean path inside the state
// dir, names the record or the lock, or passes through a symlink. Each
// kind of step names only what a transaction gives it: a move or a
// folder removal a top-level folder, a rename a temp file beside its
// target. The paths are then resolved by atomicfile.Root as they are
// acted on, which closes the window between this check and the step.
func (d *Dir) checkRecord(in *Intent) error {
	for i, s := range in.Steps {
		named := []string{s.Path}
		if s.To != "" || s.Op == "move" || s.Op == "rename" {
			named = append(named, s.To)
		}
		for _, p := range named {
			if err := stepPath(p); err != nil {
				return fmt.Errorf("step %d (%s) names %q, %v", i+1, s.Op, p, err)
			}
			if err := d.walk(d.abs(p), false); err != nil {
				return fmt.Errorf("step %d (%s): %v", i+1, s.Op, err)
			}
		}
		if err := stepShape(s); err != nil {
			return fmt.Errorf("step %d (%s) %v", i+1, s.Op, err)
		}
	}
	for _, dir := range in.Sync {
		if dir == "." {
			continue
		}
		if err := stepPath(dir); err != nil {
			return fmt.Errorf("a folder to sync, %q, %v", dir, err)
		}
		if err := d.walk(d.abs(dir), false); err != nil {
			return err
		}
	}
	return nil
}

// stepPath refuses a path a record cannot name: empty, not clean and
// relative with forward slashes, leaving the state dir, or naming the
// record itself or the lock.
func stepPath(p string) error {
	switch {
	case p == "" || p == ".":
		return errors.New("which is no file in the state dir")
	case strings.Contains(p, `\`) || path.IsAbs(p) || !filepath.IsLocal(filepath.FromSlash(p)):
		return errors.New("which leaves the state dir")
	case path.Clean(p) != p:
		return errors.New("which is not a clean path")
	case p == IntentFile || p == lock.FileName:
		return errors.New("which only orc-state itself handles")
	}
	return nil
}

// stepShape refuses a step that names what no transaction gives that
// kind of step.
func stepShape(s Step) error {
	switch s.Op {
	case "append", "remove":
		if s.To != "" {
			return errors.New("has a target")
		}
	case "move":
		if strings.Contains(s.Path, "/") || strings.Contains(s.To, "/") {
			return errors.New("names something other than a session folder")
		}
	case "remove-all":
		if strings.Contains(s.Path, "/") && !archiveFolder(s.Path) || s.To != "" {
			return errors.New("names something other than a session folder or an archive")
		}
	case "rename":
		dir, temp := path.Split(s.Path)
		toDir, target := path.Split(s.To)
		prefix := "." + target[:min(len(target), atomicfile.MaxTempBase)] + ".tmp-"
		if dir != toDir || !atomicfile.IsTemp(temp) || !strings.HasPrefix(temp, prefix) {
			return fmt.Errorf("renames %q, which is not a temp file of %q", s.Path, s.To)
		}
	default:
		return errors.New("is no step orc-state takes")
	}
	return nil
}

// archiveFolder reports whether p names an archive folder,
// .archive/<sessionId>/<time>: three plain parts, the first ArchiveFolder.
func archiveFolder(p string) bool {
	parts := strings.Split(p, "/")
	return len(parts) == 3 && parts[0] == ArchiveFolder && parts[1] != "" && parts[2] != "" &&
		!strings.HasPrefix(parts[1], ".") && !strings.HasPrefix(parts[2], ".")
}

// interrupted is the error of a transaction that failed after its first
// visible change: the record stays for repair.
func interrupted(verb string, cause error) error {
	return &fault.Error{Code: fault.Interrupted, Err: cause,
		Msg:  fmt.Sprintf("interrupted after it began changing files: %v; the change is recorded in %s", cause, IntentFile),
		Hint: "run orc-state repair to complete it (the next command that writes completes it too); do not run " + verb + " again"}
}

// sameCommand reports whether tx, about to commit, is the interrupted
// transaction in run again: the same verb with the same journaled
// arguments for the same sessions.
func (in *Intent) sameCommand(tx *Tx) bool {
	if in == nil || in.Torn || in.wasApplied || in.Verb != tx.opts.Verb || len(in.Args) == 0 || len(in.Args) != len(tx.touched) {
		return false
	}
	for id, args := range tx.touched {
		if prev, ok := in.Args[id]; !ok || !bytes.Equal(prev, args) {
			return false
		}
	}
	return true
}

// Finish completes the interrupted transaction recorded in the state dir,
// under the lock, and returns its record; nil when there is none. (Every
// Update does the same before its own change.) Every
// step is done again in order (each is a no-op when it already happened),
// the directories are synced and the record is removed, so the state is
// exactly what the transaction would have written. A torn record is
// removed (nothing of it was applied).
func (d *Dir) Finish(ctx context.Context, opts Options) (*Intent, error) {
	if in, err := d.Pending(); err != nil || in == nil {
		return nil, err // a clean log needs no lock (finish checks again under it)
	}
	l, err := lock.Acquire(ctx, d.Path, opts.Verb, opts.LockTimeout)
	if err != nil {
		var te *lock.TimeoutError
		if errors.As(err, &te) {
			return nil, &fault.Error{Code: fault.Locked, Msg: te.Error(), Err: err,
				Hint: "another orc-state is writing; retry, or raise --lock-timeout"}
		}
		return nil, fault.Wrap(fault.Invalid, err, "cannot lock the state dir")
	}
	defer l.Release()
	return d.finish()
}

// finish completes the recorded transaction; the caller holds the lock.
// A record that fails checkRecord is refused whole (exit 3): none of its
// steps is done.
func (d *Dir) finish() (*Intent, error) {
	in, _, err := d.finishLog()
	return in, err
}

// finishLog is finish that also returns the log it read when it found
// nothing to complete (the log is then as it is on disk, and stays so
// while the lock is held): the transaction that follows writes its record
// from it instead of reading and checking the log a second time.
func (d *Dir) finishLog() (*Intent, *logState, error) {
	st, err := d.readLog()
	if err != nil {
		return nil, nil, fault.Wrap(fault.Invalid, err, "cannot read %s", IntentFile)
	}
	if st.legacy != nil {
		in, err := d.finishLegacy(st.legacy)
		return in, nil, err
	}
	in := st.interrupted()
	if in == nil {
		return nil, &st, nil
	}
	done, err := d.replay(st, in)
	return done, nil, err
}

// replay does every record of st again (after a restart) or the
// interrupted last one, then checkpoints the log.
func (d *Dir) replay(st logState, in *Intent) (*Intent, error) {
	var err error
	txs := st.replayed()
	for _, tx := range txs {
		err := tx.Invalid
		if err == nil {
			err = d.checkRecord(tx)
		}
		if err != nil {
			return nil, untrusted(err)
		}
	}
	for i, tx := range txs {
		if txs[i], err = st.full(st.index(tx)); err != nil {
			return nil, d.finishFault(in, err)
		}
	}
	for _, tx := range txs {
		for _, s := range tx.Steps {
			if err := d.redo(s, true, in.Restart); err != nil {
				return nil, d.finishFault(in, err)
			}
		}
	}
	// Done again by hand: made durable at once, and the log removed.
	if err := d.checkpoint(st); err != nil {
		return nil, d.finishFault(in, err)
	}
	return in, nil
}

// finishLegacy completes the single record an older orc-state left: its
// temp files were fsynced before it, so its renames, then the folders'
// fsyncs, complete it.
func (d *Dir) finishLegacy(in *Intent) (*Intent, error) {
	if in.Torn {
		return in, d.root().Remove(IntentFile)
	}
	if in.Invalid = d.checkRecord(in); in.Invalid != nil {
		return nil, untrusted(in.Invalid)
	}
	root := d.root()
	for _, s := range in.Steps {
		if err := d.redo(s, true, false); err != nil {
			return nil, d.finishFault(in, err)
		}
	}
	for _, dir := range in.Sync {
		if err := root.SyncDir(filepath.FromSlash(dir)); err != nil {
			return nil, d.finishFault(in, err)
		}
	}
	if err := root.Remove(IntentFile); err != nil {
		return nil, d.finishFault(in, err)
	}
	return in, nil
}

// untrusted is the refusal of a record that fails checkRecord.
func untrusted(why error) error {
	return fault.Invalidf("%s is not a record orc-state wrote: %v; none of its steps was done", IntentFile, why).
		WithHint("run orc-state doctor")
}

// UntrustedNext is what doctor and verify name as the next step for a
// record that fails checkRecord.
const UntrustedNext = "inspect .orc/" + IntentFile + " (none of its steps was done, none will be), move it out of the state dir, then orc-state doctor"

func (d *Dir) finishFault(in *Intent, err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	return &fault.Error{Code: fault.Interrupted, Err: err,
		Msg:  fmt.Sprintf("cannot complete the interrupted %s yet: %v", in.Describe(), err),
		Hint: "fix the cause (disk space, permissions, a program holding a file open), then run orc-state repair again"}
}

// abs turns a state-dir-relative step path into an absolute one.
func (d *Dir) abs(rel string) string { return filepath.Join(d.Path, filepath.FromSlash(rel)) }

// rel is the inverse of abs.
func (d *Dir) rel(path string) string {
	r, err := filepath.Rel(d.Path, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// redo does one step, or nothing when it already happened. Every path is
// resolved beneath the state dir through no symlink (atomicfile.Root); a
// step the record could not hold is refused before anything is done
// (checkRecord), so it is refused here only as a last line. Applying a
// transaction (again false) renames its temp files; doing a step again
// writes a rename's content from the record (the temp file may be gone,
// or torn by a restart) and removes the temp file. After a restart
// (restart) an append may also find zero bytes where its bytes were not
// yet written, which it writes over.
func (d *Dir) redo(s Step, again, restart bool) error {
	if err := stepPath(s.Path); err != nil {
		return untrusted(fmt.Errorf("a step names %q, %v", s.Path, err))
	}
	root := d.root()
	rel, to := filepath.FromSlash(s.Path), filepath.FromSlash(s.To)
	exists := func(p string) bool { _, err := root.Lstat(p); return err == nil }
	switch s.Op {
	case "append":
		return redoAppend(root, rel, s.Size, s.Data, restart)
	case "move", "rename":
		if err := stepPath(s.To); err != nil {
			return untrusted(fmt.Errorf("a step names %q, %v", s.To, err))
		}
		if s.Op == "rename" && again && s.Content {
			if _, err := root.MkdirAllLazy(filepath.Dir(to)); err != nil {
				return err
			}
			t, err := root.StageLazy(to, s.Data, 0o644)
			if err != nil {
				return err
			}
			if err := t.Commit(); err != nil {
				_ = t.Discard()
				return err
			}
			return root.Remove(rel)
		}
		if !exists(rel) {
			return nil // done already: only this transaction knew a temp name
		}
		return root.Rename(rel, to)
	case "remove":
		return root.Remove(rel)
	case "remove-all":
		return root.RemoveAll(rel)
	}
	return untrusted(fmt.Errorf("a step is %q, which is no step orc-state takes", s.Op))
}

// redoAppend makes the file hold data at offset size: done when it does,
// finished when it holds a prefix of it (a torn append), refused when it
// holds anything else there.
func redoAppend(root atomicfile.Root, rel string, size int64, data []byte, restart bool) error {
	path := filepath.Join(root.Dir, rel)
	a, err := root.OpenAppend(rel)
	if err != nil {
		return err
	}
	defer a.Close()
	if a.Size > size {
		have, err := root.ReadRange(rel, size, min(a.Size, size+int64(len(data))))
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(data, have) && !(restart && allZero(have)) {
			return fault.Invalidf("cannot complete the interrupted append to %s: it changed since", path).
				WithHint("restore it from the record in .orc/%s, or move the record away and run orc-state doctor", IntentFile)
		}
		if a.Size >= size+int64(len(data)) && bytes.Equal(have, data) {
			return nil // appended already
		}
	} else if a.Size < size {
		return fault.Invalidf("cannot complete the interrupted append to %s: it is shorter than before", path).
			WithHint("move .orc/%s away and run orc-state doctor", IntentFile)
	}
	a.Size = size
	return a.Append(data)
}

// allZero reports whether b holds only zero bytes: what a restart leaves
// where a file was extended but its bytes not yet written.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
