//go:build unix

package gitx

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killProcessGroupOnCancel runs cmd in its own process group and kills the
// whole group when its context ends, so no git grandchild outlives a timeout.
func killProcessGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// deviceOf returns the file system device of path, for git's rule that
// discovery stops at a file-system boundary.
func deviceOf(path string) (uint64, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // Dev is int32 on some platforms
}

// isNotDir reports a path whose parent is a file (ENOTDIR).
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
