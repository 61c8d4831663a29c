//go:build unix

package gitx

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// lookPath finds the program name in the directories of path (a PATH
// value), as exec.LookPath does with the process's own PATH: the first
// regular file there that someone may execute. Relative directories are
// skipped, as exec.LookPath refuses what it would find there (exec.ErrDot).
func lookPath(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// ownedByMe reports whether fi (an Lstat) belongs to the effective user:
// then git's safe.directory check passes without reading any config.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
