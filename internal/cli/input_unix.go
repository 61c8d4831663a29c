//go:build unix

package cli

import (
	"os"
	"syscall"
)

// openInput opens a FILE argument for reading without blocking: opening a
// FIFO with no writer would otherwise wait forever, before the caller could
// see that it is no regular file.
func openInput(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
