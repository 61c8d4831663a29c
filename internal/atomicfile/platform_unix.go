//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// oNoFollow makes open(2) fail with ELOOP instead of following a symlink in
// the last path element.
const oNoFollow = syscall.O_NOFOLLOW

// isSharingViolation: only Windows refuses a rename over an open file.
func isSharingViolation(error) bool { return false }

// unsupportedSync reports a directory fsync the file system cannot do.
func unsupportedSync(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP)
}

// Open opens a file for reading. Elsewhere than on Windows an open file
// never stops a rename over it. It is os.Open without the poller: os.Open
// also offers every descriptor to the runtime's network poller, which
// refuses a regular file after three more system calls. On a VM, where a
// system call is slow, those were a third of reading a small file, and
// doctor opens eight files a session.
func Open(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// syncOpenFlag opens a file to fsync it: fsync(2) takes a read-only
// descriptor.
const syncOpenFlag = os.O_RDONLY
