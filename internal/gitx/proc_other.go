//go:build !unix

package gitx

import "os/exec"

// killProcessGroupOnCancel keeps exec's default (kill the process only).
func killProcessGroupOnCancel(*exec.Cmd) {}
