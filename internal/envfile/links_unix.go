//go:build unix

package envfile

import (
	"os"
	"syscall"
)

// linkCount is how many names the file at path has (0 when it does not
// exist).
func linkCount(path string) uint64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}
