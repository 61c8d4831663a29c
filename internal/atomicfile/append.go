package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Appender is an append-only file opened for one append. It remembers the
// file's length when opened, so a failed append can be cut back to it.
type Appender struct {
	f    *os.File
	Path string
	Size int64 // the length before the append
}

// OpenAppend opens an existing append-only file for writing, refusing a
// symbolic link or anything but a regular file, and records its length.
// Opening proves the file writable before anything is written.
func OpenAppend(path string) (*Appender, error) {
	if err := refuseSymlink(path); err != nil {
		return nil, err
	}
	if err := step(OpOpenAppend, path); err != nil {
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|oNoFollow, 0)
	if err != nil {
		if isNoFollowErr(path, err) {
			return nil, fmt.Errorf("append %s: %w", path, ErrSymlink)
		}
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("append %s: %w", path, err)
	}
	return &Appender{f: f, Path: path, Size: st.Size()}, nil
}

// Append writes data at the recorded length and fsyncs. On failure it cuts
// the file back to the recorded length (the earlier bytes are never
// touched), so nothing of data remains.
func (a *Appender) Append(data []byte) error {
	err := step(OpAppend, a.Path)
	if err == nil {
		_, err = a.f.WriteAt(data, a.Size)
	}
	if err == nil {
		if err = step(OpSync, a.Path); err == nil {
			err = fsync(a.f)
		}
	}
	if err != nil {
		if uerr := a.Undo(); uerr != nil {
			return fmt.Errorf("append %s: %w (and cutting it back failed: %v)", a.Path, err, uerr)
		}
		return fmt.Errorf("append %s: %w", a.Path, err)
	}
	return nil
}

// Write is Append without the fsync: for a file whose bytes a synced
// write-ahead record also holds (package state). On failure it cuts the
// file back (and that cut is synced), so nothing of data remains.
func (a *Appender) Write(data []byte) error {
	err := step(OpAppend, a.Path)
	if err == nil {
		_, err = a.f.WriteAt(data, a.Size)
	}
	if err != nil {
		if uerr := a.Undo(); uerr != nil {
			return fmt.Errorf("append %s: %w (and cutting it back failed: %v)", a.Path, err, uerr)
		}
		return fmt.Errorf("append %s: %w", a.Path, err)
	}
	return nil
}

// Sync fsyncs the file.
func (a *Appender) Sync() error {
	if err := step(OpSync, a.Path); err != nil {
		return fmt.Errorf("fsync %s: %w", a.Path, err)
	}
	if err := fsync(a.f); err != nil {
		return fmt.Errorf("fsync %s: %w", a.Path, err)
	}
	return nil
}

// Cut truncates the file to size, without an fsync (the next synced write
// makes the length durable with it).
func (a *Appender) Cut(size int64) error {
	if err := step(OpTruncate, a.Path); err != nil {
		return err
	}
	return a.f.Truncate(size)
}

// ReadAll reads the whole file from its start.
func (a *Appender) ReadAll() ([]byte, error) {
	st, err := a.f.Stat()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, st.Size())
	n, err := a.f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// Undo cuts the file back to the length it had when opened, and fsyncs.
func (a *Appender) Undo() error {
	if err := a.f.Truncate(a.Size); err != nil {
		return err
	}
	return fsync(a.f)
}

// Close closes the file.
func (a *Appender) Close() error { return a.f.Close() }

// Append appends data to path and fsyncs it; a missing file is created with
// mode perm (exactly, not filtered by the umask) and its directory fsynced.
// A failed append is cut back to the old length, so nothing of data
// remains. It refuses when path is a symbolic link. It is for a single
// append outside a transaction (the repository's info/exclude).
func Append(path string, data []byte, perm os.FileMode) error {
	if err := step(OpCreate, path); err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	// O_EXCL never follows a symlink, so the create path is safe as is.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, perm)
	if errors.Is(err, fs.ErrExist) {
		a, err := OpenAppend(path)
		if err != nil {
			return err
		}
		err = a.Append(data)
		if cerr := a.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("append %s: %w", path, cerr)
		}
		return err
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	a := &Appender{f: f, Path: path}
	err = f.Chmod(perm)
	if err == nil {
		err = a.Append(data)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err == nil {
		err = SyncDir(filepath.Dir(path))
	}
	if err != nil {
		_ = os.Remove(path) // it was ours, and empty or cut back
		return fmt.Errorf("append %s: %w", path, err)
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
