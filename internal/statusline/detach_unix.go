//go:build unix

package statusline

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, so it outlives the statusline
// process and whatever the host does to that process's group.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
