//go:build unix

package cli

import (
	"math"
	"syscall"
)

// fileLimit is how many files the process may have open: RLIMIT_NOFILE's
// soft limit, which the Go runtime raised to the hard limit at start. ok
// is false when the system does not say.
func fileLimit() (n int64, ok bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, false
	}
	if rl.Cur > math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(rl.Cur), true
}
