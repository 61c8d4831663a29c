package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/orc-state/orc-state/internal/fault"
)

// refusingWriter refuses every write with err.
type refusingWriter struct{ err error }

func (w refusingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestUnwrittenHelpIsExit7: help whose output could not be written is
// exit 7 saying so, for orc-state itself and every verb, never 0 and
// never a usage error with "run orc-state --help"; a closed pipe is said
// to be one.
func TestUnwrittenHelpIsExit7(t *testing.T) {
	cases := [][]string{{"--help"}, {"help"}, {"-h"}}
	for _, v := range verbs {
		if v.flags != nil {
			cases = append(cases, append(strings.Fields(v.words), "--help"))
		}
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{syscall.ENOSPC, "the output could not be written: "},
		{io.ErrClosedPipe, "the output's reader closed the pipe"},
		{syscall.EPIPE, "the output's reader closed the pipe"},
	} {
		for _, args := range cases {
			var stderr bytes.Buffer
			code := Run(Process{Args: args, Stdout: refusingWriter{tt.err}, Stderr: &stderr, Dir: t.TempDir()})
			if code != fault.Internal || !strings.Contains(stderr.String(), tt.want) || strings.Contains(stderr.String(), "--help") {
				t.Errorf("%q with stdout refusing (%v): exit %d, stderr %q; want exit 7 and %q", args, tt.err, code, stderr.String(), tt.want)
			}
		}
	}
}

// The writer keeps the first failure, refuses every later write with it,
// and a short write counts as a failure.
func TestOutputKeepsTheFirstFailure(t *testing.T) {
	o := &output{w: refusingWriter{syscall.ENOSPC}}
	if _, err := o.Write([]byte("x")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("first write: %v", err)
	}
	if _, err := o.Write([]byte("y")); !errors.Is(err, syscall.ENOSPC) || o.failed() == nil {
		t.Fatalf("later write: %v", err)
	}
	short := &output{w: shortWriter{}}
	if _, err := short.Write([]byte("abc")); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("short write: %v", err)
	}
	fine := &output{w: &bytes.Buffer{}}
	if _, err := fine.Write([]byte("abc")); err != nil || fine.failed() != nil {
		t.Fatalf("a write that went through: %v", err)
	}
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) - 1, nil }
