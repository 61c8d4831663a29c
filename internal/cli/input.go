package cli

// Reading and checking what a user hands a verb: the work is in
// internal/input; these name it for the verbs.

import (
	"io"
	"time"

	"github.com/orc-state/orc-state/internal/input"
)

// maxStdin bounds what a verb reads from stdin; more is refused, not cut.
const maxStdin = input.MaxStdin

// readStdin reads all of stdin (input.ReadStdin).
func (e *Env) readStdin() ([]byte, error) { return input.ReadStdin(e.Stdin, e.Stderr, e.Verb) }

// readInputFile reads a user's input file (input.ReadFile); "-" is stdin.
func (e *Env) readInputFile(path string) ([]byte, error) {
	if path == "-" {
		return e.readStdin()
	}
	return input.ReadFile(e.abs(path), path)
}

// refuseSecrets refuses text that looks like a credential (input.RefuseSecrets).
func refuseSecrets(what string, text []byte) error { return input.RefuseSecrets(what, text) }

// checkText refuses invalid UTF-8, NUL bytes and credential-shaped text.
func checkText(what string, text []byte) error { return input.CheckText(what, text) }

// readWithin reads r bounded in size and time (input.Within).
func readWithin(r io.Reader, limit int64, timeout time.Duration, whole func([]byte) bool) ([]byte, error) {
	return input.Within(r, limit, timeout, whole)
}
