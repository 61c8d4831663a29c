//go:build !unix

package input

import (
	"io"
	"os"
	"time"
)

// openFile opens a FILE argument for reading.
func openFile(path string) (*os.File, error) { return os.Open(path) }

// pollRead has no poll(2) here: Within reads with a goroutine.
func pollRead(*os.File, int64, time.Duration, func([]byte) bool) ([]byte, error, bool) {
	return nil, nil, false
}

// IsTerminal is false here: the prompt of a stdin reader is shown only
// where a terminal can be told apart from a pipe without a console API.
func IsTerminal(io.Reader) bool { return false }
