package cli

// Reading what a user hands a verb: the work is in internal/input; these
// read the run's stdin and its working directory's files for the verbs.

import "github.com/orc-state/orc-state/internal/input"

// readStdin reads all of stdin (input.ReadStdin).
func (e *Env) readStdin() ([]byte, error) { return input.ReadStdin(e.Stdin, e.Stderr, e.Verb) }

// readInputFile reads a user's input file (input.ReadFile); "-" is stdin.
func (e *Env) readInputFile(path string) ([]byte, error) {
	if path == "-" {
		return e.readStdin()
	}
	return input.ReadFile(e.abs(path), path)
}
