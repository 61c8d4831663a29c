package lock

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelperProcess is the child re-executed by the tests below; in a normal
// run it does nothing. LOCK_HELPER selects the role:
//
//	counter: 25 locked increments of LOCK_DIR/counter, then exit 0
//	hold:    take the lock, print "locked", sleep until killed
func TestHelperProcess(t *testing.T) {
	role := os.Getenv("LOCK_HELPER")
	if role == "" {
		return
	}
	dir := os.Getenv("LOCK_DIR")
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "helper %s: %v\n", role, err)
		os.Exit(3)
	}
	switch role {
	case "counter":
		for range 25 {
			if err := increment(context.Background(), dir, "counter"); err != nil {
				fail(err)
			}
		}
		os.Exit(0)
	case "hold":
		if _, err := Acquire(context.Background(), dir, "hold", 5*time.Second); err != nil {
			fail(err)
		}
		os.Stdout.WriteString("locked\n")
		time.Sleep(20 * time.Second) // exit by itself if the parent forgot us
		os.Exit(0)
	}
	fail(fmt.Errorf("unknown role"))
}

func helper(role, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "LOCK_HELPER="+role, "LOCK_DIR="+dir)
	return cmd
}

// 20 processes x 25 locked read-increment-write cycles: no lost update.
func TestProcessesExclude(t *testing.T) {
	const procs, rounds = 20, 25
	dir := t.TempDir()
	start := time.Now()
	cmds := make([]*exec.Cmd, procs)
	outs := make([]bytes.Buffer, procs)
	for i := range cmds {
		cmds[i] = helper("counter", dir)
		cmds[i].Stdout = &outs[i]
		cmds[i].Stderr = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v: %s", i, err, outs[i].Bytes())
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if n := readCounter(t, dir); n != procs*rounds {
		t.Fatalf("counter = %d, want %d (lost updates)", n, procs*rounds)
	}
	lockFileExists(t, dir)
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	if !slices.Equal(names, []string{FileName, "counter"}) {
		t.Fatalf("dir holds %q, want only .lock and counter", names)
	}
	t.Logf("%d processes x %d increments in %v", procs, rounds, time.Since(start).Round(time.Millisecond))
}

// A holder killed with SIGKILL releases the lock at once (the kernel drops
// the flock), and the lock file stays.
func TestKilledHolderReleases(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs SIGKILL semantics")
	}
	dir := t.TempDir()
	cmd := helper("hold", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("child did not lock (%q, %v): %s", line, err, stderr.Bytes())
	}

	childPid := cmd.Process.Pid
	if h := Holder(dir); !strings.HasPrefix(h, fmt.Sprintf("pid %d verb hold since ", childPid)) {
		t.Fatalf("Holder = %q, want the child (pid %d)", h, childPid)
	}
	if held, err := Held(dir); err != nil || !held {
		t.Fatalf("Held = %v, %v while the child holds it", held, err)
	}
	_, err = Acquire(context.Background(), dir, "waiter", 50*time.Millisecond)
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want *TimeoutError", err)
	}
	if want := fmt.Sprintf("state is locked by pid %d (verb hold) since ", childPid); !strings.HasPrefix(te.Error(), want) {
		t.Fatalf("Error() = %q, want prefix %q", te.Error(), want)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed = true

	start := time.Now()
	l, err := Acquire(context.Background(), dir, "after", 2*time.Second)
	if err != nil {
		t.Fatalf("Acquire after the holder died: %v", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("Acquire after kill took %v, want immediate", d)
	}
	if h := Holder(dir); !strings.HasPrefix(h, fmt.Sprintf("pid %d verb after since ", os.Getpid())) {
		t.Errorf("Holder = %q, want this process", h)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	lockFileExists(t, dir)
}
