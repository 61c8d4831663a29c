// Package atomicfile is orc-state's file-system layer: every write under the
// state directory, and every read of a file that a writer may replace, goes
// through it.
//
// Writes:
//
//   - [Stage] writes a file's next content to a temp file in the target's
//     directory (".<base>.tmp-<digits>"), sets its mode, fsyncs and closes
//     it; nothing is visible yet, and a full disk (ENOSPC) or a read-only
//     directory surfaces here. [Temp.Commit] renames it over the target.
//   - [WriteFile] is Stage, Commit and a directory fsync: a reader (or a
//     crash at any instant) sees the old or the new content, never a torn
//     file.
//   - [WriteCache] is WriteFile without the fsyncs: atomic but not durable,
//     for caches whose loss costs only time (never for state).
//   - [OpenAppend] opens an append-only file (journal.jsonl, progress.md,
//     removed.jsonl) for writing and records its length; [Appender.Append]
//     writes at that length and fsyncs, and on failure cuts the file back to
//     it, so a failed append leaves no partial record. [Append] does both for
//     a single append.
//   - [Rename], [Remove], [RemoveAll], [MkdirAll], [Probe] and [SyncDir] are
//     the other steps a transaction takes.
//
// Reads: [Open] and [ReadFile] open a file so that a writer may rename over
// it while it is open. On Windows that needs FILE_SHARE_DELETE, which
// os.Open does not ask for; elsewhere they are os.Open and os.ReadFile.
// [ReadOnly] is ReadFile for bytes that are only read (orc.json): on Linux
// a large file is mapped instead of copied.
//
// Platforms. On Windows a directory cannot be fsynced (the call is refused
// with "Access denied") and there is nothing to make durable that way, so
// [SyncDir] does nothing there, as other Go storage engines do. Windows
// refuses to rename over a file another process holds open without delete
// sharing (a sharing violation, or "Access denied"): [Rename] retries for up
// to [RenameRetry] before giving up.
//
// None of the writes follows a symbolic link: a link inside .orc/ pointing
// elsewhere is refused with [ErrSymlink].
//
// Beneath a folder: [Root] has the same steps for paths relative to one
// folder (the state dir), resolved through no symbolic link at any
// component and never out of it; on Linux with openat2, so that the check
// and the step are one. Every write of a transaction uses it.
//
// Faults. Every step first calls the package variable [Fault] when it is
// set; an error it returns is what the step returns. Production code never
// sets it: the fault-injection tests do (cmd/orc-state's TestMain installs
// it from an environment variable, so real processes run it).
//
// The package takes no lock; callers that read-modify-write hold the state
// lock (package lock) around the whole cycle.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrSymlink is returned (wrapped) when the target of a write is a symbolic
// link. Writes never follow links.
var ErrSymlink = errors.New("refusing to write through a symbolic link")

// tempInfix separates the target's base name from the random suffix in a
// temp file name: ".<base>" + tempInfix + "<random>".
const tempInfix = ".tmp-"

// MaxTempBase bounds the part of the target's name a temp name repeats, so
// that "." + base + ".tmp-" + up to 10 digits fits the 255-byte name limit.
const MaxTempBase = 200

// Temp is a file's next content, durable under a temp name in the target's
// directory and not yet visible at the target.
type Temp struct {
	Path   string // the temp file
	Target string // what Commit renames it over
	// root, when set, is the Root the temp was staged beneath
	// ([Root.Stage]); rel and targetRel are Path and Target in it.
	root           *Root
	rel, targetRel string
}

// Stage writes data to a new temp file beside target, gives it mode perm
// (exactly, not filtered by the umask), fsyncs and closes it. On error the
// temp file is removed. It refuses when target is a symbolic link.
func Stage(target string, data []byte, perm os.FileMode) (*Temp, error) {
	return stage(target, data, perm, true)
}

func stage(target string, data []byte, perm os.FileMode, durable bool) (t *Temp, err error) {
	if err := refuseSymlink(target); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	if base == "" {
		return nil, fmt.Errorf("write %s: no file name", target)
	}
	if dir == "" {
		dir = "." // CreateTemp("") would pick $TMPDIR, another filesystem
	}
	prefix := base
	if len(prefix) > MaxTempBase {
		prefix = prefix[:MaxTempBase] // a 240-byte name must not make a 256-byte temp name
	}
	if err := step(OpCreate, target); err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	f, err := os.CreateTemp(dir, "."+prefix+tempInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	name := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close() // may already be closed; the error is irrelevant then
			_ = os.Remove(name)
		}
	}()
	if err = step(OpWrite, target); err == nil {
		_, err = f.Write(data)
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	if err = f.Chmod(perm); err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	if durable {
		if err = step(OpSync, target); err == nil {
			err = fsync(f)
		}
		if err != nil {
			return nil, fmt.Errorf("write %s: fsync: %w", target, err)
		}
	}
	if err = f.Close(); err != nil {
		return nil, fmt.Errorf("write %s: %w", target, err)
	}
	return &Temp{Path: name, Target: target}, nil
}

// Commit renames the temp file over its target (see [Rename]). The
// directory is not fsynced: the caller does that once per directory.
func (t *Temp) Commit() error {
	if t.root != nil {
		if err := t.root.Rename(t.rel, t.targetRel); err != nil {
			return fmt.Errorf("write %s: %w", t.Target, err)
		}
		return nil
	}
	if err := refuseSymlink(t.Target); err != nil {
		return err
	}
	if err := Rename(t.Path, t.Target); err != nil {
		return fmt.Errorf("write %s: %w", t.Target, err)
	}
	return nil
}

// Discard removes the temp file (a missing one is no error). It takes no
// fault: it is what undoes a failed step.
func (t *Temp) Discard() error {
	if t.root != nil {
		return t.root.Unmake(t.rel)
	}
	if err := os.Remove(t.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// WriteFile atomically and durably replaces path with data and gives it mode
// perm: [Stage], [Temp.Commit], then [SyncDir] of the directory. On any
// error before the rename the temp file is removed and path is left as it
// was. It refuses when path is a symbolic link.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	t, err := Stage(path, data, perm)
	if err != nil {
		return err
	}
	if err := t.Commit(); err != nil {
		_ = t.Discard()
		return err
	}
	// From here on path holds the new content and the temp name is free
	// again (another writer may reuse it), so nothing must be removed.
	if err := SyncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("write %s: fsync directory: %w", path, err)
	}
	return nil
}

// WriteCache replaces path with data atomically but not durably (no
// fsync): a reader sees the old or the new content, but a crash may lose
// the write. It is for files whose loss or staleness costs only time, never
// correctness (the statusline's cache and context files). Otherwise it is
// WriteFile.
func WriteCache(path string, data []byte, perm os.FileMode) error {
	t, err := stage(path, data, perm, false)
	if err != nil {
		return err
	}
	if err := t.Commit(); err != nil {
		_ = t.Discard()
		return err
	}
	return nil
}

// IsTemp reports whether name looks like a temp file left by [Stage]:
// ".<base>.tmp-<digits>" with a non-empty base. A path is reduced to its
// last element first.
func IsTemp(name string) bool {
	name = filepath.Base(name)
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tempInfix)
	if i <= 1 { // no infix, or an empty base (".", ".tmp-…")
		return false
	}
	suffix := name[i+len(tempInfix):]
	if suffix == "" {
		return false
	}
	for _, c := range suffix {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// refuseSymlink returns an error wrapping ErrSymlink when path exists and is
// a symbolic link. A missing path is fine.
func refuseSymlink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("write %s: %w", path, ErrSymlink)
	}
	return nil
}
