//go:build !unix

package statusline

import "os/exec"

// detach keeps the default: on Windows a child outlives its parent.
func detach(*exec.Cmd) {}
