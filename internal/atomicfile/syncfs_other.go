//go:build !linux

package atomicfile

import "errors"

// CanSyncAll reports whether [Root.SyncAll] flushes the file system: only
// on Linux. Elsewhere durability is an fsync per file and folder (macOS's
// sync(2) does not wait for the disk).
const CanSyncAll = false

// SyncAll is not available here: see [CanSyncAll].
func (r Root) SyncAll() error { return errors.New("syncfs is available on Linux only") }
