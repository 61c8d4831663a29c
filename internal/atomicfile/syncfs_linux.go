//go:build linux

package atomicfile

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// CanSyncAll reports whether [Root.SyncAll] flushes the file system: on
// Linux, with syncfs(2).
const CanSyncAll = true

// SyncAll makes everything written to the file system the root is on
// durable at once, data and metadata of every file and folder: one
// syncfs(2) instead of an fsync per file and per folder. It counts as one
// fsync. Since Linux 5.8 syncfs reports a write-back error of any file on
// the file system that no fsync or syncfs saw yet (the super block's error
// sequence, as fsync reports a file's), so a failed write-back of a file
// renamed earlier without its own fsync is an error here. Where a sandbox
// refuses the call (ENOSYS), sync(2) does the same work for every file
// system, waiting for it as Linux's does, but reports no error.
func (r Root) SyncAll() error {
	if err := step(OpSyncFS, r.Dir); err != nil {
		return err
	}
	fd, err := openRetrying(func() (int, error) {
		return unix.Open(r.Dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return fmt.Errorf("syncfs %s: %w", r.Dir, err)
	}
	defer unix.Close(fd)
	syncs.Add(1)
	for {
		err = unix.Syncfs(fd)
		if err != unix.EINTR {
			break
		}
	}
	if err == unix.ENOSYS {
		unix.Sync()
		err = nil
	}
	if err != nil {
		return fmt.Errorf("syncfs %s: %w", r.Dir, err)
	}
	return nil
}
