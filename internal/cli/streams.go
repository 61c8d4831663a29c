package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/safetext"
)

// Streams is a verb's stdin, stdout and stderr, and how it prints: data
// on Stdout, a warning or a hook's problem as one line on Stderr under
// "orc-state <verb>". Inside a transaction Stdout and Stderr are the
// transaction's (Txn.printing): what a verb prints there shows once, after
// it committed.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Verb           string
}

// warn prints a non-fatal one-line warning on stderr.
func (o *Streams) warn(format string, args ...any) {
	fmt.Fprintf(o.Stderr, "orc-state %s: warning: %s\n", o.Verb, safetext.Escape(fmt.Sprintf(format, args...)))
}

// problem reports a hook failure as one line on stderr; hooks always exit
// 0 so they never block the host.
func (o *Streams) problem(err error) error {
	fmt.Fprintf(o.Stderr, "orc-state %s: %s\n", o.Verb, safetext.Escape(strings.ReplaceAll(err.Error(), "\n", " ")))
	return nil
}

// readStdin reads all of stdin (input.ReadStdin).
func (o *Streams) readStdin() ([]byte, error) { return input.ReadStdin(o.Stdin, o.Stderr, o.Verb) }

// readInputFile reads a user's input file (input.ReadFile), a path
// against the run's working directory; "-" is stdin.
func readInputFile(o *Streams, w *World, path string) ([]byte, error) {
	if path == "-" {
		return o.readStdin()
	}
	return input.ReadFile(w.abs(path), path)
}

// printJSON writes v on w as JSON, indented by indent ("" is compact).
func printJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
