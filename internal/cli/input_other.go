//go:build !unix

package cli

import (
	"io"
	"os"
	"time"
)

// openInput opens a FILE argument for reading.
func openInput(path string) (*os.File, error) { return os.Open(path) }

// pollRead has no poll(2) here: readWithin reads with a goroutine.
func pollRead(*os.File, int64, time.Duration, func([]byte) bool) ([]byte, error, bool) {
	return nil, nil, false
}

// isTerminal is false here: the prompt of a stdin reader is shown only
// where a terminal can be told apart from a pipe without a console API.
func isTerminal(io.Reader) bool { return false }
