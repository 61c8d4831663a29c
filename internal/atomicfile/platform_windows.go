//go:build windows

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// oNoFollow is not available here; the Lstat checks are the only guard
// against symlinks.
const oNoFollow = 0

// Windows error codes that mean "another handle is in the way".
const (
	errorAccessDenied     syscall.Errno = 5
	errorSharingViolation syscall.Errno = 32
	errorLockViolation    syscall.Errno = 33
)

// isSharingViolation reports a rename refused because another process holds
// the file open: retrying may succeed once it closes it.
func isSharingViolation(err error) bool {
	return errors.Is(err, errorSharingViolation) || errors.Is(err, errorAccessDenied) || errors.Is(err, errorLockViolation)
}

// unsupportedSync: SyncDir never reaches a directory fsync on Windows.
func unsupportedSync(error) bool { return false }

// Open opens a file for reading with delete sharing, so that a writer can
// rename over it while it is open (os.Open shares read and write only).
func Open(path string) (*os.File, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ,
		syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// syncOpenFlag opens a file to fsync it: FlushFileBuffers needs a handle
// with write access on Windows (a read-only handle gets Access denied).
const syncOpenFlag = os.O_RDWR
