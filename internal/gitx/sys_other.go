//go:build !unix

package gitx

import "os/exec"

// killProcessGroupOnCancel keeps exec's default (kill the process only).
func killProcessGroupOnCancel(*exec.Cmd) {}

// deviceOf is unknown here: discovery does not stop at file-system
// boundaries (git for Windows does not either).
func deviceOf(string) (uint64, bool) { return 0, false }

// isNotDir: Windows reports a path through a file as "not found".
func isNotDir(error) bool { return false }
