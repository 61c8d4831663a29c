package app

import (
	"fmt"
	"io"
	"strings"

	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/safetext"
)

// Streams is a verb's stdin, stdout and stderr, and how it prints: data
// on Stdout, a warning or a hook's problem as one line on Stderr under
// "orc-state <verb>". Inside a transaction Stdout and Stderr are the
// transaction's (see Txn): what a verb prints there shows once, after it
// committed.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Verb           string
}

// Warn prints a non-fatal one-line warning on stderr.
func (o *Streams) Warn(format string, args ...any) {
	fmt.Fprintf(o.Stderr, "orc-state %s: warning: %s\n", o.Verb, safetext.Escape(fmt.Sprintf(format, args...)))
}

// Problem reports a hook failure as one line on stderr and returns nil:
// hooks always exit 0 so they never block the host.
func (o *Streams) Problem(err error) error {
	fmt.Fprintf(o.Stderr, "orc-state %s: %s\n", o.Verb, safetext.Escape(strings.ReplaceAll(err.Error(), "\n", " ")))
	return nil
}

// ReadStdin reads all of stdin (input.ReadStdin).
func (o *Streams) ReadStdin() ([]byte, error) { return input.ReadStdin(o.Stdin, o.Stderr, o.Verb) }

// ReadInput reads a user's input file (input.ReadFile), a path against
// the run's working directory; "-" is stdin.
func (o *Streams) ReadInput(w *World, path string) ([]byte, error) {
	if path == "-" {
		return o.ReadStdin()
	}
	return input.ReadFile(w.Abs(path), path)
}
