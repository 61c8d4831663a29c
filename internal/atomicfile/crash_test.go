package atomicfile

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const crashPayloadSize = 64 << 10

// checkPayload fails unless b is exactly one complete payload: 64 KiB, all
// 'a' or all 'b'.
func checkPayload(b []byte) (ok bool, why string) {
	if len(b) != crashPayloadSize {
		return false, "wrong size"
	}
	c := b[0]
	if c != 'a' && c != 'b' {
		return false, "unexpected byte"
	}
	if bytes.Count(b, b[:1]) != len(b) {
		return false, "mixed content"
	}
	return true, ""
}

// TestHelperProcess is the writer re-executed by TestWriteFileSurvivesKill.
// In a normal test run it does nothing.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("ATOMICFILE_HELPER") != "1" {
		return
	}
	path := os.Getenv("ATOMICFILE_TARGET")
	payloads := [2][]byte{
		bytes.Repeat([]byte{'a'}, crashPayloadSize),
		bytes.Repeat([]byte{'b'}, crashPayloadSize),
	}
	// Exit by itself if the parent forgot to kill us.
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		if err := WriteFile(path, payloads[i%2], 0o644); err != nil {
			os.Stderr.WriteString("helper: " + err.Error() + "\n")
			os.Exit(3)
		}
		if i == 0 {
			os.Stdout.WriteString("ready\n")
		}
	}
	os.Exit(0)
}

// TestWriteFileSurvivesKill kills a writer process at random instants and
// checks that the target always holds one complete payload, while a reader
// in this process checks every read it makes along the way.
func TestWriteFileSurvivesKill(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs SIGKILL semantics")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "target")
	if err := WriteFile(path, bytes.Repeat([]byte{'a'}, crashPayloadSize), 0o644); err != nil {
		t.Fatal(err)
	}

	// Concurrent reader: never a torn file.
	var (
		stop    atomic.Bool
		reads   atomic.Int64
		readErr atomic.Value
		wg      sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			b, err := os.ReadFile(path)
			if err != nil {
				readErr.Store("read: " + err.Error())
				return
			}
			if ok, why := checkPayload(b); !ok {
				readErr.Store("reader saw " + why)
				return
			}
			reads.Add(1)
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()

	// 30 kills; on a very loaded machine stop after 8s (at least 10 kills)
	// so the test stays under 10s.
	const iterations, minIterations, budget = 30, 10, 8 * time.Second
	start := time.Now()
	leftovers, kills := 0, 0
	for i := range iterations {
		if i >= minIterations && time.Since(start) > budget {
			break
		}
		kills++
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER=1", "ATOMICFILE_TARGET="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "ready\n" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("iteration %d: helper did not get ready (%q, %v): %s", i, line, err, stderr.Bytes())
		}
		time.Sleep(rand.N(10 * time.Millisecond))
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait() // "signal: killed" is expected

		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
		if ok, why := checkPayload(b); !ok {
			t.Fatalf("iteration %d: target after kill: %s (len %d)", i, why, len(b))
		}
		// A kill between CreateTemp and Rename leaves a temp file behind:
		// that is what doctor reports. Count and clear them.
		for _, name := range entries(t, dir) {
			switch {
			case name == "target":
			case IsTemp(name):
				leftovers++
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("iteration %d: unexpected file %q", i, name)
			}
		}
		if msg := readErr.Load(); msg != nil {
			t.Fatalf("iteration %d: %s", i, msg)
		}
	}
	stop.Store(true)
	wg.Wait()
	if msg := readErr.Load(); msg != nil {
		t.Fatal(msg)
	}
	t.Logf("%d kills in %v; %d left a temp file; %d concurrent reads all complete",
		kills, time.Since(start).Round(time.Millisecond), leftovers, reads.Load())
}
