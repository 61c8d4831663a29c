//go:build !unix

package doctest

import "os/exec"

// killGroup: without process groups, a timeout kills the shell alone.
func killGroup(*exec.Cmd) {}
