package cli

import (
	"errors"
	"io"

	"github.com/orc-state/orc-state/internal/fault"
)

// output is the CLI's stdout: the one place a write that failed is seen,
// whoever wrote (a verb, kong's help, a transaction's buffered output).
// The first failure is kept and every later write refused with it, so a
// run whose output was not whole ends with exit 7 (Run), never 0 and
// never a usage error.
type output struct {
	w   io.Writer
	err *fault.OutputError
}

func (o *output) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = &fault.OutputError{Err: err, ClosedPipe: closedPipe(err)}
		return n, o.err
	}
	return n, nil
}

// failed is the write failure, nil when every write went through.
func (o *output) failed() error {
	if o.err == nil {
		return nil
	}
	return o.err
}

// ended is the exit of a run that returned code (having printed its own
// error, if any): when the output failed, the failure is reported once
// (unless the run's own error was it) and the exit is 7.
func (o *output) ended(stderr io.Writer, verb string, code int, runErr error) int {
	if o.err == nil {
		return code
	}
	var oe *fault.OutputError
	if runErr != nil && errors.As(runErr, &oe) {
		return code
	}
	return report(stderr, verb, o.err)
}

// closedPipe reports a write refused because the reading end of a pipe
// was closed.
func closedPipe(err error) bool {
	for _, errno := range closedPipeErrnos {
		if errors.Is(err, errno) {
			return true
		}
	}
	return errors.Is(err, io.ErrClosedPipe)
}
