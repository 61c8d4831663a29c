package input

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Within's sources: an OS pipe (stdin as a host gives it) and an
// io.Pipe (a plain reader: the goroutine path). The input is written, then
// the writer is closed (EOF) or left open for the whole test.
type readSource struct {
	name string
	open func(t *testing.T, input []byte, eof bool) io.Reader
}

var readSources = []readSource{
	{"pipe", func(t *testing.T, input []byte, eof bool) io.Reader {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		if _, err := w.Write(input); err != nil { // below the pipe's buffer
			t.Fatal(err)
		}
		if eof {
			w.Close()
		}
		return r
	}},
	{"io.Pipe (goroutine path)", func(t *testing.T, input []byte, eof bool) io.Reader {
		r, w := io.Pipe()
		t.Cleanup(func() { r.Close(); w.Close() })
		go func() {
			w.Write(input)
			if eof {
				w.Close()
			}
		}()
		return r
	}},
}

func TestReadWithin(t *testing.T) {
	payload := []byte(`{"session_id":"s1","cwd":"/x"}`)
	for _, src := range readSources {
		t.Run(src.name, func(t *testing.T) {
			for _, tc := range []struct {
				name    string
				input   []byte
				close   bool // the writer closes: EOF after the input
				limit   int64
				timeout time.Duration
				whole   bool // stop at the first complete JSON value
				want    []byte
				wantErr string
			}{
				{name: "all until EOF", input: payload, close: true, limit: 1 << 10, timeout: time.Minute, want: payload},
				{name: "empty then EOF", input: nil, close: true, limit: 1 << 10, timeout: time.Minute, want: nil},
				{name: "exactly the limit", input: payload, close: true, limit: int64(len(payload)), timeout: time.Minute, want: payload},
				{name: "one byte over the limit is refused, not cut", input: payload, close: true, limit: int64(len(payload) - 1), timeout: time.Minute, wantErr: "stdin is over"},
				{name: "never closed: gives up at the timeout", input: payload, close: false, limit: 1 << 10, timeout: 50 * time.Millisecond, wantErr: ErrNoClose.Error()},
				{name: "never closed, but whole: answers at once", input: payload, close: false, limit: 1 << 10, timeout: time.Minute, whole: true, want: payload},
				{name: "never closed, garbage is decided at once", input: []byte("not json\n"), close: false, limit: 1 << 10, timeout: time.Minute, whole: true, want: []byte("not json\n")},
				{name: "never closed, half a value waits for the timeout", input: payload[:10], close: false, limit: 1 << 10, timeout: 50 * time.Millisecond, whole: true, wantErr: ErrNoClose.Error()},
			} {
				t.Run(tc.name, func(t *testing.T) {
					r := src.open(t, tc.input, tc.close)
					var whole func([]byte) bool
					if tc.whole {
						whole = func(b []byte) bool { _, d := FirstJSON(b); return d }
					}
					got, err := readWithinOrHang(t, r, tc.limit, tc.timeout, whole)
					if tc.wantErr != "" {
						if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
							t.Fatalf("err = %v, want %q", err, tc.wantErr)
						}
						if got != nil {
							t.Fatalf("got %q with the error, want nothing", got)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, tc.want) {
						t.Fatalf("got %q, want %q", got, tc.want)
					}
				})
			}
		})
	}
}

// readWithinOrHang runs Within and fails the test if it has not
// returned long after its own timeout (a minute at most here), which is
// what a hang looks like.
func readWithinOrHang(t *testing.T, r io.Reader, limit int64, timeout time.Duration, whole func([]byte) bool) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		data, err := Within(r, limit, timeout, whole)
		ch <- result{data, err}
	}()
	bound := timeout + 20*time.Second
	if timeout >= time.Minute {
		bound = 20 * time.Second // the answer must not wait for the timeout
	}
	select {
	case res := <-ch:
		return res.data, res.err
	case <-time.After(bound):
		t.Fatalf("Within did not return within %v", bound)
		return nil, nil
	}
}

// A payload written in pieces, with pauses, is put together; the reader
// stops at the first whole value though the pipe stays open, and the rest
// of a stream after it is not waited for.
func TestReadWithinPieces(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	go func() {
		for _, piece := range []string{`{"a":`, `[1,2,`, `3]}`, ` {"b":1}`} {
			w.Write([]byte(piece))
			time.Sleep(20 * time.Millisecond)
		}
	}()
	got, err := readWithinOrHang(t, r, 1<<10, time.Minute, func(b []byte) bool { _, d := FirstJSON(b); return d })
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := FirstJSON(got)
	if string(raw) != `{"a":[1,2,3]}` {
		t.Fatalf("first value %q from %q", raw, got)
	}
}

// A regular file (stdin redirected from one) and /dev/null read whole; a
// large file goes past the first buffer.
func TestReadWithinFiles(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 10<<10) // 160 KiB
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, big, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := readWithinOrHang(t, f, 1<<20, time.Minute, nil)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, err %v; want %d", len(got), err, len(big))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := readWithinOrHang(t, f, int64(len(big)-1), time.Minute, nil); err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("a file one byte over the limit: err = %v", err)
	}
	if runtime.GOOS != "windows" {
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		if got, err := readWithinOrHang(t, null, 10, time.Minute, nil); err != nil || len(got) != 0 {
			t.Fatalf("/dev/null: %q, %v", got, err)
		}
	}
}

// A closed descriptor is an error, not an empty payload or a hang.
func TestReadWithinClosedFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	r.Close()
	_, err = readWithinOrHang(t, r, 10, time.Minute, nil)
	if err == nil || errors.Is(err, ErrNoClose) {
		t.Fatalf("err = %v, want a read error", err)
	}
}

func TestFirstJSON(t *testing.T) {
	for _, tc := range []struct {
		in      string
		raw     string
		decided bool
	}{
		{"", "", false},
		{"  \n", "", false},
		{`{"a":1`, "", false},
		{`"unterminated`, "", false},
		{`{"a":1}`, `{"a":1}`, true},
		{` {"a":1} trailing`, `{"a":1}`, true},
		{`{"a":1}{"b":2}`, `{"a":1}`, true},
		{`nonsense`, "", true},
		{`{"a":}`, "", true},
	} {
		raw, decided := FirstJSON([]byte(tc.in))
		if string(raw) != tc.raw || decided != tc.decided {
			t.Errorf("FirstJSON(%q) = %q, %v; want %q, %v", tc.in, raw, decided, tc.raw, tc.decided)
		}
	}
}

// A whole first value is taken even when more than the limit follows it
// (the statusline's payload then more); without whole the same input is
// over the limit. No read goes past limit+1 bytes.
func TestReadWithinWholeBeforeTheLimit(t *testing.T) {
	input := append([]byte(`{"a":1}`), bytes.Repeat([]byte(" x"), 100)...)
	whole := func(b []byte) bool { _, d := FirstJSON(b); return d }
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, input, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name string
		open func() io.Reader
	}{
		{"file", func() io.Reader {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}},
		{"plain reader", func() io.Reader { return bytes.NewReader(input) }},
	} {
		t.Run(src.name, func(t *testing.T) {
			got, err := readWithinOrHang(t, src.open(), 50, time.Minute, whole)
			if err != nil || len(got) > 51 {
				t.Fatalf("with whole: %d bytes, %v", len(got), err)
			}
			if raw, _ := FirstJSON(got); string(raw) != `{"a":1}` {
				t.Fatalf("first value %q", raw)
			}
			if _, err := readWithinOrHang(t, src.open(), 50, time.Minute, nil); err == nil || !strings.Contains(err.Error(), "over 50 bytes") {
				t.Fatalf("without whole: %v", err)
			}
		})
	}
}
