package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/orc-state/orc-state/internal/atomicfile"
)

func mustAcquire(t *testing.T, dir, verb string, timeout time.Duration) *Lock {
	t.Helper()
	l, err := Acquire(context.Background(), dir, verb, timeout)
	if err != nil {
		t.Fatalf("Acquire(%q): %v", verb, err)
	}
	return l
}

func lockFileExists(t *testing.T, dir string) {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(dir, FileName))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("lock file missing or not regular: %v", err)
	}
}

func TestAcquireExcludesAndNamesHolder(t *testing.T) {
	dir := t.TempDir()
	first := mustAcquire(t, dir, "phase set", time.Second)

	h := Holder(dir)
	prefix := fmt.Sprintf("pid %d verb phase set since ", os.Getpid())
	since, ok := strings.CutPrefix(h, prefix)
	if !ok {
		t.Fatalf("Holder = %q, want prefix %q", h, prefix)
	}
	if _, err := time.Parse(time.RFC3339, since); err != nil {
		t.Fatalf("holder time %q: %v", since, err)
	}
	if held, err := Held(dir); err != nil || !held {
		t.Fatalf("Held = %v, %v while held", held, err)
	}

	start := time.Now()
	second, err := Acquire(context.Background(), dir, "digest write", 100*time.Millisecond)
	waited := time.Since(start)
	if err == nil {
		second.Release()
		t.Fatal("second Acquire succeeded while the first holds the lock")
	}
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %T %v, want *TimeoutError", err, err)
	}
	if waited < 100*time.Millisecond || waited > 2*time.Second {
		t.Errorf("gave up after %v, want about 100ms", waited)
	}
	if te.Holder != h || te.Path != filepath.Join(dir, FileName) || te.Timeout != 100*time.Millisecond {
		t.Errorf("TimeoutError = %+v", te)
	}
	want := fmt.Sprintf("state is locked by pid %d (verb phase set) since %s; gave up after 100ms", os.Getpid(), since)
	if te.Error() != want {
		t.Errorf("Error() = %q\nwant      %q", te.Error(), want)
	}

	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if err := first.Release(); err != nil {
		t.Fatalf("second Release: %v", err)
	}
	lockFileExists(t, dir)
	if h := Holder(dir); h != "" {
		t.Errorf("Holder after Release = %q, want empty", h)
	}
	// The second Acquire gave up while its wait stayed blocked in
	// flock(2) (lockWaiting): it may take the lock the moment the first
	// releases it, and then releases it at once, so the lock is free
	// again soon after, not necessarily at once.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		held, err := Held(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Held = true 5 s after Release: the given-up wait kept the lock")
		}
	}

	third := mustAcquire(t, dir, "digest write", 100*time.Millisecond)
	if !strings.Contains(Holder(dir), "verb digest write since") {
		t.Errorf("Holder = %q", Holder(dir))
	}
	if err := third.Release(); err != nil {
		t.Fatal(err)
	}
	lockFileExists(t, dir)
}

func TestAcquireSingleAttempt(t *testing.T) {
	dir := t.TempDir()
	l := mustAcquire(t, dir, "a", 0)
	start := time.Now()
	_, err := Acquire(context.Background(), dir, "b", 0)
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want *TimeoutError", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("single attempt took %v", d)
	}
	l.Release()
	mustAcquire(t, dir, "b", 0).Release()
}

func TestAcquireContextCanceled(t *testing.T) {
	dir := t.TempDir()
	l := mustAcquire(t, dir, "hold", time.Second)
	defer l.Release()

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := Acquire(ctx, dir, "wait", 5*time.Second)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		t.Fatal("cancellation reported as a lock timeout")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}

	// A caller deadline shorter than the lock timeout is the caller's
	// error, not a lock timeout either.
	ctx, cancel2 := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel2()
	_, err = Acquire(ctx, dir, "wait", 5*time.Second)
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
}

func TestAcquireMissingDir(t *testing.T) {
	_, err := Acquire(context.Background(), filepath.Join(t.TempDir(), "nope"), "x", 50*time.Millisecond)
	var te *TimeoutError
	if err == nil || errors.As(err, &te) {
		t.Fatalf("err = %v, want a plain error", err)
	}
}

func TestAcquireRefusesSymlink(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	if err := os.WriteFile(outside, []byte("untouched"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".orc")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, FileName)); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	l, err := Acquire(context.Background(), dir, "x", 50*time.Millisecond)
	if err == nil {
		l.Release()
		t.Fatal("Acquire through a symlink succeeded")
	}
	if b, _ := os.ReadFile(outside); string(b) != "untouched" {
		t.Fatalf("symlink target written: %q", b)
	}
}

func TestHeldAndHolderWithoutFile(t *testing.T) {
	dir := t.TempDir()
	if held, err := Held(dir); err != nil || held {
		t.Fatalf("Held = %v, %v on an empty dir", held, err)
	}
	if h := Holder(dir); h != "" {
		t.Fatalf("Holder = %q on an empty dir", h)
	}
	if _, err := os.Lstat(filepath.Join(dir, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Held or Holder created the lock file (%v)", err)
	}
}

func TestStillAtPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	fl := flock.New(path)
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer fl.Close()
	if same, err := stillAtPath(fl, path); !same || err != nil {
		t.Fatalf("stillAtPath = %v, %v for the same file", same, err)
	}
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	if same, err := stillAtPath(fl, path); same || err != nil {
		t.Fatalf("stillAtPath = %v, %v after the file moved away", same, err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if same, err := stillAtPath(fl, path); same || err != nil {
		t.Fatalf("stillAtPath = %v, %v after the file was replaced", same, err)
	}
}

func TestDescribeHolder(t *testing.T) {
	tests := []struct{ in, want string }{
		{"pid 7 verb phase set since 2025-01-02T03:04:05Z", "pid 7 (verb phase set) since 2025-01-02T03:04:05Z"},
		{"pid 7 verb x since y since z", "pid 7 (verb x since y) since z"},
		{"", "another process"},
		{"garbage", "another process"},
		{"pid  verb x since y", "another process"},
		{"pid 7 verb  since y", "another process"},
	}
	for _, tt := range tests {
		if got := DescribeHolder(tt.in); got != tt.want {
			t.Errorf("DescribeHolder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := (&TimeoutError{Timeout: 5 * time.Second}).Error(); got != "state is locked by another process; gave up after 5s" {
		t.Errorf("Error() = %q", got)
	}
}

func TestVerbNewlinesStayOnOneLine(t *testing.T) {
	dir := t.TempDir()
	l := mustAcquire(t, dir, "evil\nverb", time.Second)
	defer l.Release()
	if h := Holder(dir); !strings.Contains(h, "verb evil verb since") {
		t.Fatalf("Holder = %q", h)
	}
}

// increment runs one locked read-increment-write cycle on dir/counter.
func increment(ctx context.Context, dir, verb string) error {
	l, err := Acquire(ctx, dir, verb, 30*time.Second)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "counter")
	n := 0
	b, err := os.ReadFile(path)
	if err == nil {
		n, err = strconv.Atoi(string(b))
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		l.Release()
		return err
	}
	if err := atomicfile.WriteFile(path, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
		l.Release()
		return err
	}
	return l.Release()
}

func readCounter(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "counter"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Goroutines in one process: each Acquire has its own flock handle, so they
// exclude each other too.
func TestGoroutinesExclude(t *testing.T) {
	dir := t.TempDir()
	const workers, rounds = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if err := increment(context.Background(), dir, fmt.Sprintf("g%d", w)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := readCounter(t, dir); n != workers*rounds {
		t.Fatalf("counter = %d, want %d (lost updates)", n, workers*rounds)
	}
}
