//go:build unix

package input

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// openFile opens a FILE argument for reading without blocking: opening a
// FIFO with no writer would otherwise wait forever, before the caller could
// see that it is no regular file.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// pollRead is Within for a file: poll(2) bounded by the deadline, then
// read(2), on the calling goroutine. The file's mode is left as it is (a
// descriptor the host made non-blocking stays so). ok is false when f has
// no descriptor to poll.
func pollRead(f *os.File, limit int64, timeout time.Duration, whole func([]byte) bool) (data []byte, err error, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	deadline := time.Now().Add(timeout)
	if rc.Control(func(fd uintptr) { data, err = pollLoop(int(fd), limit, deadline, whole) }) != nil || err == errCannotPoll {
		return nil, nil, false
	}
	return data, err, true
}

// errCannotPoll: poll(2) refuses the descriptor (macOS answers POLLNVAL
// for a terminal), before anything was read.
var errCannotPoll = errors.New("cannot poll stdin")

func pollLoop(fd int, limit int64, deadline time.Time, whole func([]byte) bool) ([]byte, error) {
	buf := make([]byte, 0, 16<<10)
	for {
		wait := time.Until(deadline)
		if wait <= 0 {
			return nil, ErrNoClose
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		ms := int((wait + time.Millisecond - 1) / time.Millisecond)
		if n, err := unix.Poll(fds, ms); err == unix.EINTR || n == 0 {
			continue // a signal, or the wait ran out: the deadline decides
		} else if err != nil {
			return nil, err
		}
		if fds[0].Revents&unix.POLLNVAL != 0 && len(buf) == 0 {
			return nil, errCannotPoll
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):min(int64(cap(buf)), limit+1)])
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err != nil:
			return nil, err
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if done, out, err := settled(buf, limit, whole); done {
			return out, err
		}
	}
}

// IsTerminal reports whether r is a terminal: a file whose descriptor
// answers the terminal's window-size request (a pipe, a regular file and
// /dev/null do not).
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	rc.Control(func(fd uintptr) {
		_, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
		tty = err == nil
	})
	return tty
}
