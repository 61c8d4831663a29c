package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ErrNoClose is Within's error when the input neither ended nor was
// whole in time.
var ErrNoClose = errors.New("stdin did not close in time")

// Within reads r until EOF, at most limit bytes (more is an error, not
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
func Within(r io.Reader, limit int64, timeout time.Duration, whole func([]byte) bool) ([]byte, error) {
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
		return nil, ErrNoClose
	}
}

// settled is Within's decision after a read brought data: done with
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

// FirstJSON returns the first JSON value in data (nil for garbage);
// decided is false while more input could still complete it. As Within's
// whole, it stops the read at the first complete value.
func FirstJSON(data []byte) (raw json.RawMessage, decided bool) {
	switch err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw); {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, false
	case err != nil:
		return nil, true
	}
	return raw, true
}
