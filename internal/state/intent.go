package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/lock"
)

// IntentFile is the write-ahead record of the transaction in progress, in
// the state dir. It exists only between a transaction's first visible
// change and its last; one left behind names an interrupted transaction.
const IntentFile = ".transaction.json"

// Intent is the write-ahead record: everything a transaction does after it
// is written, in order, so that it can be done again to the end.
type Intent struct {
	Verb     string   `json:"verb"`
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
}

// Step is one change of a transaction. Paths are relative to the state dir,
// with forward slashes. Each step can be done again: done again, a step
// that already happened changes nothing.
type Step struct {
	Op   string `json:"op"`             // append, move, rename, remove, remove-all
	Path string `json:"path"`           // the file appended to, the folder moved, the temp file renamed, what is removed
	To   string `json:"to,omitempty"`   // move and rename: the new name
	Size int64  `json:"size,omitempty"` // append: the file's length before
	Data []byte `json:"data,omitempty"` // append: the bytes appended
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
	if in.Torn {
		return "a transaction whose record is incomplete (nothing of it was applied)"
	}
	return fmt.Sprintf("%q (pid %d, started %s)", in.Verb, in.PID, in.At)
}

// Pending reads the record of an interrupted transaction: nil when there is
// none. A transaction in progress in another process (holding the lock)
// has one too; lock.Held tells them apart.
func (d *Dir) Pending() (*Intent, error) {
	data, err := readRegular(filepath.Join(d.Path, IntentFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read %s", IntentFile)
	}
	in := &Intent{}
	if err := json.Unmarshal(data, in); err != nil || in.Verb == "" {
		return &Intent{Torn: true}, nil
	}
	return in, nil
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
	if in == nil || in.Torn || in.Verb != tx.opts.Verb || len(in.Args) == 0 || len(in.Args) != len(tx.touched) {
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
	if _, err := os.Lstat(filepath.Join(d.Path, IntentFile)); err != nil {
		return nil, nil
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
func (d *Dir) finish() (*Intent, error) {
	in, err := d.Pending()
	if err != nil || in == nil {
		return nil, err
	}
	for _, s := range in.Steps {
		if err := d.redo(s); err != nil {
			return nil, d.finishFault(in, err)
		}
	}
	for _, dir := range in.Sync {
		if err := atomicfile.SyncDir(d.abs(dir)); err != nil {
			return nil, d.finishFault(in, err)
		}
	}
	if err := atomicfile.Remove(filepath.Join(d.Path, IntentFile)); err != nil {
		return nil, d.finishFault(in, err)
	}
	return in, nil
}

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

// redo does one step, or nothing when it already happened.
func (d *Dir) redo(s Step) error {
	path := d.abs(s.Path)
	if rel := filepath.ToSlash(filepath.Clean(s.Path)); rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(s.Path) {
		return fault.Invalidf("%s names %q, outside the state dir", IntentFile, s.Path)
	}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	switch s.Op {
	case "append":
		return redoAppend(path, s.Size, s.Data)
	case "move":
		if !exists(path) {
			return nil // moved already
		}
		return atomicfile.Rename(path, d.abs(s.To))
	case "rename":
		if !exists(path) {
			return nil // renamed already: only this transaction knew the temp name
		}
		return (&atomicfile.Temp{Path: path, Target: d.abs(s.To)}).Commit()
	case "remove":
		return atomicfile.Remove(path)
	case "remove-all":
		return atomicfile.RemoveAll(path)
	}
	return fault.Invalidf("%s has an unknown step %q", IntentFile, s.Op)
}

// redoAppend makes the file hold data at offset size: done when it does,
// finished when it holds a prefix of it (a torn append), refused when it
// holds anything else there.
func redoAppend(path string, size int64, data []byte) error {
	a, err := atomicfile.OpenAppend(path)
	if err != nil {
		return err
	}
	defer a.Close()
	if a.Size > size {
		have, err := readRange(path, size, min(a.Size, size+int64(len(data))))
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(data, have) {
			return fault.Invalidf("cannot complete the interrupted append to %s: it changed since", path).
				WithHint("restore it from the record in .orc/%s, or move the record away and run orc-state doctor", IntentFile)
		}
		if a.Size >= size+int64(len(data)) {
			return nil // appended already
		}
	} else if a.Size < size {
		return fault.Invalidf("cannot complete the interrupted append to %s: it is shorter than before", path).
			WithHint("move .orc/%s away and run orc-state doctor", IntentFile)
	}
	a.Size = size
	return a.Append(data)
}

func readRange(path string, from, to int64) ([]byte, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, to-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}
