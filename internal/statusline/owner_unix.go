//go:build unix

package statusline

import (
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// privateName is the private directory's name: one per user.
func privateName() string { return "orc-state-" + strconv.Itoa(os.Getuid()) }

// isPrivate reports whether fi is a directory (not a link to one) of this
// user that no one else can enter.
func isPrivate(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return fi.IsDir() && fi.Mode().Perm()&0o077 == 0 && ok && int(st.Uid) == os.Getuid()
}
