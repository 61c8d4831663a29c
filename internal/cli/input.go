package cli

// Reading and checking what a user hands a verb: stdin, input files, text.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/textin"
)

// maxStdin bounds what a verb reads from stdin; more is refused, not cut.
const maxStdin = 1 << 20

// readStdin reads all of stdin up to maxStdin bytes, as fromWindows
// leaves it. When stdin is a terminal, a person is typing: one line on
// stderr says the verb is waiting for the text and how to end it, so a
// verb that reads stdin never looks hung.
func (e *Env) readStdin() ([]byte, error) {
	if isTerminal(e.Stdin) {
		fmt.Fprintf(e.Stderr, "orc-state %s: reading stdin from the terminal: type the text, then Ctrl-D on a line of its own (Ctrl-C cancels)\n", e.Verb)
	}
	data, err := io.ReadAll(io.LimitReader(e.Stdin, maxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read stdin: %v", err)
	}
	if len(data) > maxStdin {
		return nil, fault.Usagef("stdin is over %d bytes", maxStdin)
	}
	return fromWindows("stdin", data)
}

// fromWindows turns text from a Windows shell or editor into what
// orc-state stores, which always has LF line endings: CRLF becomes LF
// (PowerShell pipes CRLF), so does a CR on its own (textin.ToLF: an old
// Mac file, a terminal's carriage return), and a leading UTF-8 byte order
// mark is dropped (Windows PowerShell 5 and older editors write one). UTF-16, Windows
// PowerShell's default for files it writes, is refused with the way out.
// Every verb that reads text from stdin or a file reads it through here.
func fromWindows(what string, data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return nil, fault.Usagef("%s is UTF-16 text; orc-state reads UTF-8", what).
			WithHint("in PowerShell, write it with -Encoding utf8 (Out-File, Set-Content), or set $OutputEncoding = [Text.UTF8Encoding]::new() before piping")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return textin.ToLF(data), nil
}

// readInputFile reads a user's input file, at most maxStdin bytes; "-" is
// stdin, under the same cap. Anything but a regular file (a FIFO, a device
// such as /dev/zero, a folder) is refused before a byte is read: a pipe
// that never closes must not hang the verb.
func (e *Env) readInputFile(path string) ([]byte, error) {
	if path == "-" {
		return e.readStdin()
	}
	f, err := openInput(e.abs(path))
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
	data, err := io.ReadAll(io.LimitReader(f, maxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	if len(data) > maxStdin {
		return nil, fault.Usagef("%s is over %d bytes", path, maxStdin)
	}
	return fromWindows(path, data)
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

// refuseSecrets refuses text that looks like a credential, without
// echoing it (selection.RefuseSecrets).
func refuseSecrets(what string, text []byte) error { return selection.RefuseSecrets(what, text) }

// checkText refuses invalid UTF-8, NUL bytes and credential-shaped text.
func checkText(what string, text []byte) error {
	if !validUTF8(text) {
		return fault.Usagef("%s is not valid UTF-8", what)
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return fault.Usagef("%s contains a NUL byte", what)
	}
	return refuseSecrets(what, text)
}

// errNoClose is readWithin's error when the input neither ended nor was
// whole in time.
var errNoClose = errors.New("stdin did not close in time")

// readWithin reads r until EOF, at most limit bytes (more is an error, not
// a cut), and gives up after timeout: a host that never closes stdin must
// not hang a hook or the statusline. With whole, reading also stops as soon
// as whole says the bytes so far are all it needs (a statusline payload is
// complete once one JSON value has arrived); no read goes past limit+1
// bytes, so whole never sees more.
//
// A file (stdin is one) is read by pollRead where the platform has one:
// poll(2) with a deadline on the calling goroutine, so no second thread
// is started and woken for every hook and render. Anything else is read
// by a goroutine raced against a timer.
func readWithin(r io.Reader, limit int64, timeout time.Duration, whole func([]byte) bool) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if data, err, ok := pollRead(f, limit, timeout, whole); ok {
			return data, err
		}
	}
	type result struct {
		data []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var data []byte
		buf := make([]byte, min(32<<10, limit+1))
		for {
			n, err := r.Read(buf[:min(int64(len(buf)), limit+1-int64(len(data)))])
			data = append(data, buf[:n]...)
			if n > 0 {
				if done, out, err := settled(data, limit, whole); done {
					ch <- result{out, err}
					return
				}
			}
			switch {
			case err == io.EOF:
				ch <- result{data, nil}
				return
			case err != nil:
				ch <- result{nil, err}
				return
			}
		}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-ch:
		return res.data, res.err
	case <-timer.C:
		return nil, errNoClose
	}
}

// settled is readWithin's decision after a read brought data: done with
// the data when whole says it has all it needs (asked first: a whole first
// value wins over what follows it), done with an error and no data once
// data passes limit, else not done.
func settled(data []byte, limit int64, whole func([]byte) bool) (done bool, out []byte, err error) {
	switch {
	case whole != nil && whole(data):
		return true, data, nil
	case int64(len(data)) > limit:
		return true, nil, fmt.Errorf("stdin is over %d bytes", limit)
	}
	return false, nil, nil
}
