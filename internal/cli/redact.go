package cli

import (
	"bytes"
	"io"

	"github.com/orc-state/orc-state/internal/app"
)

// redactingWriter is stderr as every verb sees it: each line passes
// through the credential guard's redaction (app.RedactCredentials) before
// it is written, so that no message, hint or warning can echo
// credential-shaped input (a refused --url, a file name, a key that names
// no session), whichever code path printed it.
type redactingWriter struct {
	w   io.Writer
	buf []byte
}

// Write passes on every complete line, redacted; a partial line waits for
// its end or for Flush.
func (r *redactingWriter) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := io.WriteString(r.w, app.RedactCredentials(string(r.buf[:i]))+"\n"); err != nil {
			return len(p), err
		}
		r.buf = r.buf[i+1:]
	}
}

// Flush writes what is left of an unfinished line.
func (r *redactingWriter) Flush() {
	if len(r.buf) > 0 {
		_, _ = io.WriteString(r.w, app.RedactCredentials(string(r.buf)))
		r.buf = nil
	}
}
