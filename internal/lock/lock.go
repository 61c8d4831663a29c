// Package lock owns the single-writer lock of a state directory: an
// exclusive flock(2) on the sidecar file .orc/.lock. The same kind of lock
// on another file ([AcquireFile]) serialises sync's verbs.
//
// Every read-modify-write of a file under .orc/ runs between [Acquire] and
// [Lock.Release]. The lock file is never deleted (deleting it while another
// process waits would give two holders on two inodes) and the data files are
// never locked themselves (an atomic rename swaps their inode). The kernel
// drops the lock when its holder dies, so there are no stale locks to clean.
//
// While held, the file contains one informational line,
// "pid <pid> verb <verb> since <RFC3339>", used to name the holder when
// another writer gives up ([TimeoutError]). Readers take no
// lock. The lock is also compatible with flock(1), so shell hooks can share
// it.
//
// Layout of .lock: byte 0 is the lock byte and the holder line starts at
// byte 1. On Windows the lock is a byte-range lock on byte 0, enforced per
// handle: a write into it through any other handle fails, and so does a
// read. So the holder line, written through a second handle, and every
// reader of it stay out of byte 0; nothing is ever written there (a new
// file has a zero byte there). On Unix flock(2) locks the whole file and
// the layout is the same, so a lock file means the same everywhere.
package lock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/gofrs/flock"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// FileName is the name of the lock file inside the state directory.
const FileName = ".lock"

// filePerm is the mode of a newly created lock file.
const filePerm fs.FileMode = 0o644

// holderOffset is where the holder line starts: after the lock byte.
const holderOffset = 1

// maxHolder bounds how much of the holder line is read.
const maxHolder = 1024

// writeAt and readAt are how the holder line is written and read; the
// tests replace them to check that no access touches the lock byte.
var (
	writeAt = func(f *os.File, b []byte, off int64) (int, error) { return f.WriteAt(b, off) }
	readAt  = func(f *os.File, b []byte, off int64) (int, error) { return f.ReadAt(b, off) }
)

// Lock is a held lock. Release it exactly once (further calls are no-ops).
// A Lock must not be shared as a mutex between goroutines: each writer
// calls Acquire and gets its own.
type Lock struct {
	mu     sync.Mutex
	fl     *flock.Flock
	holder *os.File // write handle for the holder line; closed after unlock
	path   string
}

// TimeoutError reports that the lock was still held by someone else when
// the timeout expired.
type TimeoutError struct {
	Path    string        // the lock file
	Timeout time.Duration // how long Acquire waited
	Holder  string        // the holder line read at the time, "" if unknown
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("state is locked by %s; gave up after %v", DescribeHolder(e.Holder), e.Timeout)
}

// DescribeHolder turns "pid 12 verb phase set since T" into
// "pid 12 (verb phase set) since T"; anything else is reported vaguely.
func DescribeHolder(h string) string {
	pid, verb, since, ok := parseHolder(h)
	if !ok {
		return "another process"
	}
	return fmt.Sprintf("pid %s (verb %s) since %s", pid, verb, since)
}

func parseHolder(h string) (pid, verb, since string, ok bool) {
	rest, ok := strings.CutPrefix(h, "pid ")
	if !ok {
		return "", "", "", false
	}
	pid, rest, ok = strings.Cut(rest, " verb ")
	if !ok || pid == "" {
		return "", "", "", false
	}
	i := strings.LastIndex(rest, " since ")
	if i < 0 {
		return "", "", "", false
	}
	verb, since = rest[:i], rest[i+len(" since "):]
	return pid, verb, since, verb != "" && since != ""
}

// Acquire takes the exclusive lock on dir/.lock, creating the file if
// needed (dir itself must exist). It waits (in flock(2), woken when the lock
// is released) until it gets the lock, ctx ends, or timeout passes; timeout <= 0 means a single attempt. On
// timeout it returns a *TimeoutError naming the current holder; when ctx
// ends first it returns an error wrapping ctx.Err().
//
// On success it records "pid <pid> verb <verb> since <RFC3339>" in the
// lock file. A lock file that is a symbolic link is refused.
func Acquire(ctx context.Context, dir string, verb string, timeout time.Duration) (*Lock, error) {
	return AcquireFile(ctx, filepath.Join(dir, FileName), verb, timeout)
}

// AcquireFile is Acquire on a lock file of another name (its folder must
// exist): sync's own lock, which is not the writers' lock.
func AcquireFile(ctx context.Context, path string, verb string, timeout time.Duration) (*Lock, error) {
	waitCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	for {
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("lock %s: not a regular file (%v); refusing to use it", path, fi.Mode().Type())
		}
		fl := flock.New(path, flock.SetPermissions(filePerm))
		var (
			ok  bool
			err error
		)
		if timeout > 0 {
			ok, err = lockWaiting(waitCtx, fl)
		} else if err = ctx.Err(); err == nil {
			ok, err = fl.TryLock()
		}
		if err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("lock %s: %w", path, ctx.Err())
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !ok {
			return nil, &TimeoutError{Path: path, Timeout: max(timeout, 0), Holder: holderOf(path)}
		}

		// The file we locked must still be the one at path: if it was
		// replaced (or deleted by hand) meanwhile, our lock excludes no one,
		// so try again on the file that is there now.
		if same, err := stillAtPath(fl, path); err != nil || !same {
			_ = fl.Close()
			if err != nil {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			continue
		}

		l := &Lock{fl: fl, path: path}
		if err := l.writeHolder(verb); err != nil {
			_ = l.Release()
			return nil, fmt.Errorf("lock %s: record holder: %w", path, err)
		}
		return l, nil
	}
}

// lockWaiting takes fl, waiting in the kernel until it is free or ctx
// ends. The kernel wakes a waiter the moment the holder releases the lock,
// where polling left the lock idle for up to the poll's delay after each
// release, a long time beside a commit of one fsync, and 50 pollers cost
// the CPU their wake-ups. A wait given up leaves its goroutine blocked in
// flock(2); should it get the lock later, it releases it at once.
func lockWaiting(ctx context.Context, fl *flock.Flock) (bool, error) {
	if ok, err := fl.TryLock(); ok || err != nil {
		return ok, err
	}
	done := make(chan error, 1)
	go func() { done <- fl.Lock() }()
	select {
	case err := <-done:
		return err == nil, err
	case <-ctx.Done():
		go func() {
			if <-done == nil {
				_ = fl.Unlock()
			}
			_ = fl.Close()
		}()
		return false, ctx.Err()
	}
}

// stillAtPath reports whether the locked file is the one path names now.
func stillAtPath(fl *flock.Flock, path string) (bool, error) {
	locked, err := fl.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(locked, now), nil
}

// writeHolder records who holds the lock. The write handle stays open until
// Release so that no descriptor of the lock file is closed while it is
// held (fcntl-emulated flock would drop the lock on such a close).
func (l *Lock) writeHolder(verb string) error {
	line := fmt.Sprintf("pid %d verb %s since %s\n",
		os.Getpid(), oneLine(verb), time.Now().UTC().Format(time.RFC3339))
	f, err := os.OpenFile(l.path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	l.holder = f
	// Write first, then cut the old tail: a concurrent Holder never sees an
	// empty file while the lock is held.
	if _, err := writeAt(f, []byte(line), holderOffset); err != nil {
		return err
	}
	return f.Truncate(holderOffset + int64(len(line)))
}

// oneLine keeps the holder a single line whatever the verb holds.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	if s == "" {
		return "?"
	}
	return s
}

// Release clears the holder line, unlocks and closes the lock. The lock file
// stays on disk. Calling Release again does nothing.
func (l *Lock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fl == nil {
		return nil
	}
	var errs []error
	if l.holder != nil {
		// Informational only: a failure here must not keep the lock.
		_ = l.holder.Truncate(holderOffset)
	}
	if err := l.fl.Close(); err != nil { // unlock + close; never deletes
		errs = append(errs, err)
	}
	if l.holder != nil {
		if err := l.holder.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	l.fl, l.holder = nil, nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}

// Holder returns the holder line recorded in dir/.lock, without locking;
// "" when there is none or it cannot be read. It is informational: the
// holder may have gone by the time the caller uses it.
// Control characters are dropped, so the line is safe to show in a message.
// It never reads the lock byte, so a held lock never blocks it.
func Holder(dir string) string { return holderOf(filepath.Join(dir, FileName)) }

// holderOf is Holder of the lock file at path.
func holderOf(path string) string {
	f, err := atomicfile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, maxHolder)
	n, err := readAt(f, buf, holderOffset)
	if err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, line))
}

// Held reports whether some process (this one included, through another
// Lock) holds the lock on dir now. It takes the lock for an instant when it
// is free, and never creates the lock file: a missing file means not held.
func Held(dir string) (bool, error) {
	path := filepath.Join(dir, FileName)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	fl := flock.New(path, flock.SetFlag(os.O_RDONLY))
	ok, err := fl.TryLock()
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return true, nil
	}
	if err := fl.Close(); err != nil {
		return false, fmt.Errorf("unlock %s: %w", path, err)
	}
	return false, nil
}
