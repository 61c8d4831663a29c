//go:build unix

package input

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// A descriptor the host made non-blocking (Go then hands it to its poller)
// is read the same way: poll waits for the payload, a read that finds
// nothing yet is retried, and the mode is left as the host set it.
func TestReadWithinNonBlockingStdin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fd, err := syscall.Dup(int(r.Fd()))
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	in := os.NewFile(uintptr(fd), "stdin")
	defer in.Close()
	go func() {
		time.Sleep(30 * time.Millisecond)
		w.Write([]byte(`{"session_id":`))
		time.Sleep(30 * time.Millisecond)
		w.Write([]byte(`"s1"}`))
	}()
	got, err := readWithinOrHang(t, in, 1<<10, time.Minute, func(b []byte) bool { _, d := FirstJSON(b); return d })
	if err != nil || string(got) != `{"session_id":"s1"}` {
		t.Fatalf("got %q, %v", got, err)
	}
	rc, err := in.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	rc.Control(func(fd uintptr) { flags, _ = fcntlFlags(int(fd)) })
	if flags&syscall.O_NONBLOCK == 0 {
		t.Error("the descriptor is no longer non-blocking")
	}
}

func fcntlFlags(fd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(syscall.F_GETFL), 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

// A descriptor poll(2) refuses (POLLNVAL: macOS says so for a terminal;
// here, a descriptor that is not open) is handed back before anything is
// read, so that Within reads it the other way instead of hanging in a
// read without a deadline.
func TestPollLoopHandsBackWhatItCannotPoll(t *testing.T) {
	const notOpen = 1 << 20
	if _, err := pollLoop(notOpen, 10, time.Now().Add(time.Minute), nil); err != errCannotPoll {
		t.Fatalf("err = %v, want errCannotPoll", err)
	}
}
