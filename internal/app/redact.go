package app

import (
	"bytes"
	"io"

	"github.com/orc-state/orc-state/internal/secrets"
)

// RedactingWriter is stderr as every verb sees it: each line passes
// through the credential guard's redaction (secrets.Redact: every
// credential-shaped run becomes a "[redacted <kind>]" marker) before it is
// written, so that no message, hint or warning can echo
// credential-shaped input (a refused --url, a file name, a key that names
// no session), whichever code path printed it.
type RedactingWriter struct {
	w   io.Writer
	buf []byte
}

// NewRedactingWriter is w behind the credential guard's redaction.
func NewRedactingWriter(w io.Writer) *RedactingWriter { return &RedactingWriter{w: w} }

// Write passes on every complete line, redacted; a partial line waits for
// its end or for Flush.
func (r *RedactingWriter) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := io.WriteString(r.w, secrets.Redact(string(r.buf[:i]))+"\n"); err != nil {
			return len(p), err
		}
		r.buf = r.buf[i+1:]
	}
}

// Flush writes what is left of an unfinished line.
func (r *RedactingWriter) Flush() {
	if len(r.buf) > 0 {
		_, _ = io.WriteString(r.w, secrets.Redact(string(r.buf)))
		r.buf = nil
	}
}
