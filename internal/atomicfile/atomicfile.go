// Package atomicfile owns every write orc-state makes to disk.
//
// Nothing under the state directory is written any other way:
//
//   - [WriteFile] replaces a file atomically and durably: a temp file in the
//     same directory (".<base>.tmp-<random>") is written, chmod-ed, fsynced,
//     closed and renamed over the target, then the directory is fsynced.
//     A reader (or a crash at any instant) sees the old or the new content,
//     never a torn file.
//   - [WriteCache] is WriteFile without the fsyncs: atomic but not durable,
//     for caches whose loss costs only time (never for state).
//   - [Append] appends to the append-only files (journal.jsonl, progress.md)
//     with one write call followed by fsync.
//   - [MkdirAll] creates directories and fsyncs their parents.
//   - [IsTemp] recognises the temp files a killed writer can leave behind, so
//     doctor can report them.
//
// None of them writes through a symbolic link: a link inside .orc/ pointing
// elsewhere is refused with [ErrSymlink].
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
	"syscall"
)

// ErrSymlink is returned (wrapped) when the target of a write is a symbolic
// link. Writes never follow links.
var ErrSymlink = errors.New("refusing to write through a symbolic link")

// tempInfix separates the target's base name from the random suffix in a
// temp file name: ".<base>" + tempInfix + "<random>".
const tempInfix = ".tmp-"

// rename is os.Rename; tests replace it to fail after the temp file is
// fully written.
var rename = os.Rename

// WriteFile atomically and durably replaces path with data and gives it mode
// perm (exactly, not filtered by the umask).
//
// It creates a temp file in the same directory, writes data, sets perm,
// fsyncs and closes it, renames it over path and fsyncs the directory. On
// any error the temp file is removed and path is left as it was. It refuses
// when path is a symbolic link.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	return write(path, data, perm, true)
}

// WriteCache replaces path with data atomically but not durably (no
// fsync): a reader sees the old or the new content, but a crash may lose
// the write. It is for files whose loss or staleness costs only time, never
// correctness (the statusline's cache and context files). Otherwise it is
// WriteFile.
func WriteCache(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false)
}

func write(path string, data []byte, perm os.FileMode, durable bool) (err error) {
	if err := refuseSymlink(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if base == "" {
		return fmt.Errorf("write %s: no file name", path)
	}
	if dir == "" {
		dir = "." // CreateTemp("") would pick $TMPDIR, another filesystem
	}
	prefix := base
	if len(prefix) > maxTempBase {
		prefix = prefix[:maxTempBase] // a 240-byte name must not make a 256-byte temp name
	}
	tmp, err := os.CreateTemp(dir, "."+prefix+tempInfix+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		if err != nil && !renamed {
			_ = tmp.Close() // may already be closed; the error is irrelevant then
			_ = os.Remove(tmpName)
		}
	}()

	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if durable {
		if err = tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: fsync: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = rename(tmpName, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// From here on path holds the new content and the temp name is free
	// again (another writer may reuse it), so nothing must be removed.
	renamed = true
	if !durable {
		return nil
	}
	if err = syncDir(dir); err != nil {
		return fmt.Errorf("write %s: fsync directory: %w", path, err)
	}
	return nil
}

// Append appends data to path with a single write call and fsyncs the file.
// A missing file is created with mode perm (exactly, not filtered by the
// umask) and its directory is fsynced so the new entry is durable. It
// refuses when path is a symbolic link.
//
// Append is for append-only files (journal.jsonl, progress.md); a crash can
// leave at most the last record incomplete, never damage earlier ones.
func Append(path string, data []byte, perm os.FileMode) (err error) {
	// O_EXCL never follows a symlink, so the create path is safe as is.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL|oNoFollow, perm)
	created := err == nil
	if errors.Is(err, fs.ErrExist) {
		if err := refuseSymlink(path); err != nil {
			return err
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|oNoFollow, 0)
	}
	if err != nil {
		if isNoFollowErr(path, err) {
			return fmt.Errorf("append %s: %w", path, ErrSymlink)
		}
		return fmt.Errorf("append %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("append %s: %w", path, cerr)
		}
	}()

	if created {
		if err := f.Chmod(perm); err != nil {
			return fmt.Errorf("append %s: %w", path, err)
		}
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("append %s: fsync: %w", path, err)
	}
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			return fmt.Errorf("append %s: fsync directory: %w", path, err)
		}
	}
	return nil
}

// IsTemp reports whether name looks like a temp file left by [WriteFile]:
// ".<base>.tmp-<digits>" with a non-empty base. A path is reduced to its
// last element first.
// maxTempBase bounds the part of the target's name a temp name repeats, so
// that "." + base + ".tmp-" + up to 10 digits fits the 255-byte name limit.
const maxTempBase = 200

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

// MkdirAll creates dir and any missing parents with mode 0o755 (before the
// umask) and fsyncs the parent of every directory it creates, so the new
// entries survive a crash. An existing directory is not an error; an
// existing non-directory is.
func MkdirAll(dir string) error {
	dir = filepath.Clean(dir)

	// Walk up to the first existing ancestor, remembering what is missing.
	var missing []string
	for p := dir; ; {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("mkdir %s: %s is not a directory", dir, p)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("mkdir %s: %w", dir, err)
		}
		missing = append(missing, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}

	// Create top-down; each new entry is made durable in its parent.
	for i := len(missing) - 1; i >= 0; i-- {
		p := missing[i]
		if err := os.Mkdir(p, 0o755); err != nil {
			if !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("mkdir %s: %w", dir, err)
			}
			// Lost a race with another creator: fine if it is a directory.
			if fi, serr := os.Stat(p); serr != nil || !fi.IsDir() {
				return fmt.Errorf("mkdir %s: %w", dir, err)
			}
			continue
		}
		if err := syncDir(filepath.Dir(p)); err != nil {
			return fmt.Errorf("mkdir %s: fsync %s: %w", dir, filepath.Dir(p), err)
		}
	}
	return nil
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

// isNoFollowErr reports whether err came from O_NOFOLLOW meeting a symlink
// (ELOOP on Linux and macOS); it double-checks with Lstat.
func isNoFollowErr(path string, err error) bool {
	if oNoFollow == 0 || !errors.Is(err, syscall.ELOOP) {
		return false
	}
	fi, lerr := os.Lstat(path)
	return lerr == nil && fi.Mode()&fs.ModeSymlink != 0
}

// syncDir fsyncs a directory so entries created or renamed in it are
// durable. Filesystems that cannot fsync a directory (EINVAL, ENOTSUP) are
// tolerated: there is nothing more the caller could do.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
