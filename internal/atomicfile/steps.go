package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// RenameRetry bounds how long [Rename] retries a rename that the platform
// refused because another process holds the target open (Windows only).
// The programs that do (an editor with the file open, a search indexer,
// antivirus scanning a file just written) hold it for seconds, and a
// transaction refused after its commit point is interrupted (exit 6,
// repair completes it): 10 s outlasts them while a writer waiting for the
// lock (5 s by default) still learns in bounded time (docs/reliability.md).
var RenameRetry = 10 * time.Second

// retryable reports whether a failed rename may succeed when retried: a
// Windows sharing violation or "Access denied" caused by an open handle.
// Always false elsewhere.
var retryable = isSharingViolation

// dirSync is whether directories can be fsynced here; not on Windows.
var dirSync = runtime.GOOS != "windows"

// Rename renames oldpath to newpath, replacing newpath. Where the platform
// refuses because a reader holds newpath open (Windows), it retries with a
// growing delay for up to [RenameRetry].
func Rename(oldpath, newpath string) error {
	return retrying(func() error {
		err := step(OpRename, newpath)
		if err == nil {
			err = os.Rename(oldpath, newpath)
		}
		return err
	})
}

// renameRetrying is os.Rename with Rename's retries, for a step whose
// fault hook already ran.
func renameRetrying(oldpath, newpath string) error {
	return retrying(func() error { return os.Rename(oldpath, newpath) })
}

// retrying runs a rename until it succeeds, fails for a reason a retry
// cannot help, or [RenameRetry] has passed.
func retrying(rename func() error) error {
	deadline := time.Now().Add(RenameRetry)
	delay := time.Millisecond
	for {
		err := rename()
		if err == nil || !retryable(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
		delay = min(2*delay, 50*time.Millisecond)
	}
}

// Remove deletes a file or an empty directory; a missing one is no error.
func Remove(path string) error {
	if err := step(OpRemove, path); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// RemoveAll deletes path and everything under it, one entry at a time
// (files first, then each directory once empty), never following a
// symbolic link. A missing path is no error. When it fails midway what is
// left is a subset of what was there, and calling it again finishes.
func RemoveAll(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := RemoveAll(filepath.Join(path, e.Name())); err != nil {
				return err
			}
		}
	}
	return Remove(path)
}

// MkdirAll creates dir and any missing parents with mode 0o755 (before the
// umask) and fsyncs the parent of every directory it creates, so the new
// entries survive a crash. It returns the directories it created, outermost
// first (to undo them, remove them in reverse). An existing directory is not
// an error; an existing non-directory is.
func MkdirAll(dir string) (created []string, err error) {
	dir = filepath.Clean(dir)

	// Walk up to the first existing ancestor, remembering what is missing.
	var missing []string
	for p := dir; ; {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return nil, fmt.Errorf("mkdir %s: %s is not a directory", dir, p)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("mkdir %s: %w", dir, err)
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
		err := step(OpMkdir, p)
		if err == nil {
			err = os.Mkdir(p, 0o755)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrExist) {
				return created, fmt.Errorf("mkdir %s: %w", dir, err)
			}
			// Lost a race with another creator: fine if it is a directory.
			if fi, serr := os.Stat(p); serr != nil || !fi.IsDir() {
				return created, fmt.Errorf("mkdir %s: %w", dir, err)
			}
			continue
		}
		created = append(created, p)
		if err := SyncDir(filepath.Dir(p)); err != nil {
			return created, fmt.Errorf("mkdir %s: fsync %s: %w", dir, filepath.Dir(p), err)
		}
	}
	return created, nil
}

// Probe proves that entries can be created and deleted in dir, by creating
// and removing a temp file there. Only a test of the real thing answers
// this on every platform and for every user (root ignores modes, a
// read-only mount does not).
func Probe(dir string) error {
	if err := step(OpCreate, dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe"+tempInfix+"*")
	if err != nil {
		return err
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name) // where a file could be created it can be removed
}

// SyncDir fsyncs a directory so the entries created, renamed or removed in
// it are durable. It does nothing on Windows, which refuses to fsync a
// directory and has nothing to make durable that way. File systems that
// cannot fsync a directory (EINVAL, ENOTSUP) are tolerated: there is nothing
// more the caller could do.
func SyncDir(dir string) error {
	if !dirSync {
		return nil
	}
	if err := step(OpSyncDir, dir); err != nil {
		return err
	}
	return syncDirPath(dir)
}

// syncDirPath fsyncs the folder dir, tolerating a file system that cannot.
func syncDirPath(dir string) error {
	if !dirSync {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = fsync(d)
	if unsupportedSync(err) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Create writes a new file (it must not exist) with data and mode perm and
// fsyncs it; on failure nothing is left. The directory is not fsynced.
func Create(path string, data []byte, perm os.FileMode) (err error) {
	if err := step(OpCreate, path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(path)
		}
	}()
	return fill(f, path, data)
}

// fill writes data to the new file f (at path, as the seam names it),
// fsyncs it and closes it; on failure f is left open for the caller's
// clean-up, which closes and removes it.
func fill(f *os.File, path string, data []byte) error {
	err := step(OpWrite, path)
	if err == nil {
		_, err = f.Write(data)
	}
	if err != nil {
		return err
	}
	if err = step(OpSync, path); err == nil {
		err = fsync(f)
	}
	if err != nil {
		return err
	}
	return f.Close()
}
