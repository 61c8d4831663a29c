//go:build windows

package cli

import "syscall"

// closedPipeErrnos are the errors of a write to a pipe nobody reads:
// ERROR_BROKEN_PIPE (109), ERROR_NO_DATA (232, "the pipe is being
// closed") and ERROR_PIPE_NOT_CONNECTED (233, as wine reports it).
var closedPipeErrnos = []error{syscall.Errno(109), syscall.Errno(232), syscall.Errno(233), syscall.EPIPE}
