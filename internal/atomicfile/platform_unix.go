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
// never stops a rename over it.
func Open(path string) (*os.File, error) { return os.Open(path) }
