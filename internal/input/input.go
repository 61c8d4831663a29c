// Package input owns reading what a user or a host hands a verb: stdin
// and input files under one size cap (MaxStdin), bounded in time where a
// host may never close stdin (Within: hooks, the statusline), text from
// Windows shells turned into what orc-state stores (FromWindows), and the
// checks every stored text passes (CheckText, RefuseSecrets). Its errors
// are fault usage errors (exit 2) saying what to do; it writes nothing.
package input

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/textin"
)

// MaxStdin bounds what a verb reads from stdin; more is refused, not cut.
const MaxStdin = 1 << 20

// ReadStdin reads all of stdin up to MaxStdin bytes, as FromWindows
// leaves it. When stdin is a terminal, a person is typing: one line on
// stderr says verb is waiting for the text and how to end it, so a verb
// that reads stdin never looks hung.
func ReadStdin(stdin io.Reader, stderr io.Writer, verb string) ([]byte, error) {
	if IsTerminal(stdin) {
		fmt.Fprintf(stderr, "orc-state %s: reading stdin from the terminal: type the text, then Ctrl-D on a line of its own (Ctrl-C cancels)\n", verb)
	}
	data, err := io.ReadAll(io.LimitReader(stdin, MaxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read stdin: %v", err)
	}
	if len(data) > MaxStdin {
		return nil, fault.Usagef("stdin is over %d bytes", MaxStdin)
	}
	return FromWindows("stdin", data)
}

// FromWindows turns text from a Windows shell or editor into what
// orc-state stores, which always has LF line endings: CRLF becomes LF
// (PowerShell pipes CRLF), so does a CR on its own (textin.ToLF: an old
// Mac file, a terminal's carriage return), and a leading UTF-8 byte order
// mark is dropped (Windows PowerShell 5 and older editors write one). UTF-16, Windows
// PowerShell's default for files it writes, is refused with the way out.
// Every verb that reads text from stdin or a file reads it through here.
func FromWindows(what string, data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return nil, fault.Usagef("%s is UTF-16 text; orc-state reads UTF-8", what).
			WithHint("in PowerShell, write it with -Encoding utf8 (Out-File, Set-Content), or set $OutputEncoding = [Text.UTF8Encoding]::new() before piping")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return textin.ToLF(data), nil
}

// ReadFile reads a user's input file at abs (named path in messages), at
// most MaxStdin bytes. Anything but a regular file (a FIFO, a device such
// as /dev/zero, a folder) is refused before a byte is read: a pipe that
// never closes must not hang the verb. The caller reads "-" as stdin.
func ReadFile(abs, path string) ([]byte, error) {
	f, err := openFile(abs)
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fault.Usagef("%s is %s, not a regular file", path, fileKind(st.Mode())).
			WithHint("pass a file, or - to read stdin")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	if len(data) > MaxStdin {
		return nil, fault.Usagef("%s is over %d bytes", path, MaxStdin)
	}
	return FromWindows(path, data)
}

// fileKind names what a non-regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	default:
		return "a special file"
	}
}

// RefuseSecrets refuses text that looks like a credential, without echoing it.
func RefuseSecrets(what string, text []byte) error {
	if kind, line, ok := secrets.FindDecoded(text); ok {
		where := fmt.Sprintf("%s line %d", what, line)
		if line == 0 {
			where = what + ", once its escapes are decoded,"
		}
		return fault.Usagef("%s looks like a credential (%s); it was not stored", where, kind).
			WithHint("remove the secret and retry; reference it by name instead")
	}
	return nil
}

// CheckText refuses invalid UTF-8, NUL bytes and credential-shaped text.
func CheckText(what string, text []byte) error {
	if !utf8.Valid(text) {
		return fault.Usagef("%s is not valid UTF-8", what)
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return fault.Usagef("%s contains a NUL byte", what)
	}
	return RefuseSecrets(what, text)
}
