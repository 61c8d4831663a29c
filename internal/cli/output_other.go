//go:build !windows

package cli

import "syscall"

// closedPipeErrnos are the errors of a write to a pipe nobody reads.
var closedPipeErrnos = []error{syscall.EPIPE}
