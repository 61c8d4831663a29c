// Package fault is orc-state's error vocabulary: the exit codes of docs/protocol.md
// §18, the Error that carries one with a hint, and Explain, the one place
// any error becomes what the user sees: exit code, message and a hint that
// names the next step. The format packages (registry, slices, decisions)
// and the lock return typed errors that say what is wrong and know no exit
// code or command; Explain maps them. The CLI prints the result as
//
//	orc-state <verb>: <message>
//	hint: <hint>
package fault

import "fmt"

// Exit codes (docs/protocol.md §18). The table only grows.
const (
	OK         = 0
	NotFound   = 1 // not found; a false query; verify found problems; key already settled
	Usage      = 2 // usage error or refused input; nothing written
	Invalid    = 3 // invalid or unreadable state on disk; nothing written
	Locked     = 4 // lock not acquired within the timeout; nothing written
	Escalation = 5 // a retry budget is exhausted
	// Interrupted: a change was partly written after its commit point and
	// is recorded; orc-state repair completes it (package state).
	Interrupted = 6
	// Internal: a failure outside this vocabulary (an I/O error, a
	// resource limit, the operating system refusing something orc-state
	// did not expect to fail). It is never an answer: exit 1 means one.
	Internal = 7
	Software = 70 // orc-state's own bug (its grammar refused by the parser)
)

// Error is an error with an exit code and an optional hint.
type Error struct {
	Code int
	Msg  string
	Hint string
	Err  error // optional cause, for errors.Is/As
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// New returns an error with code and a formatted message.
func New(code int, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// WithHint returns e with its hint set.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// Wrap returns an error with code whose message is msg: cause.
func Wrap(code int, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...) + ": " + cause.Error(), Err: cause}
}

// Usagef is a refused input (exit 2).
func Usagef(format string, args ...any) *Error { return New(Usage, format, args...) }

// NotFoundf is a lookup failure or a false query (exit 1).
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Invalidf is invalid state on disk (exit 3).
func Invalidf(format string, args ...any) *Error { return New(Invalid, format, args...) }

// OutputError is stdout refusing what a verb printed (a full disk, a
// closed pipe, a file system error): exit 7 for every verb and for help,
// since an answer that was not written was not given. ClosedPipe says the
// reader went away (a pipe into head), which is said as such.
type OutputError struct {
	Err        error
	ClosedPipe bool
}

func (e *OutputError) Error() string {
	if e.ClosedPipe {
		return "the output's reader closed the pipe, so the rest of the output was not written (" + e.Err.Error() + ")"
	}
	return "the output could not be written: " + e.Err.Error()
}

// Unwrap returns the write's error.
func (e *OutputError) Unwrap() error { return e.Err }
