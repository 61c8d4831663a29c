//go:build !unix

package cli

import (
	"os"
	"time"
)

// openInput opens a FILE argument for reading.
func openInput(path string) (*os.File, error) { return os.Open(path) }

// pollRead has no poll(2) here: readWithin reads with a goroutine.
func pollRead(*os.File, int64, time.Duration, func([]byte) bool) ([]byte, error, bool) {
	return nil, nil, false
}
