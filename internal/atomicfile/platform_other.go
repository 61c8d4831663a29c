//go:build !unix && !windows

package atomicfile

import "os"

// oNoFollow is not available here; the Lstat checks are the only guard
// against symlinks.
const oNoFollow = 0

func isSharingViolation(error) bool { return false }

func unsupportedSync(error) bool { return false }

// Open opens a file for reading.
func Open(path string) (*os.File, error) { return os.Open(path) }

// syncOpenFlag opens a file to fsync it (write access, as Windows needs,
// where nothing says a read-only handle will do).
const syncOpenFlag = os.O_RDWR
