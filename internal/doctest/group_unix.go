//go:build unix

package doctest

import (
	"os/exec"
	"syscall"
)

// killGroup makes a timeout kill the shell's whole process group, so a
// command's background children go too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
