package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// preallocate gives a temp file that is not fsynced its blocks before its
// bytes are written. ext4 (data=ordered, auto_da_alloc, the default)
// starts writing a file out when it is renamed over another while its
// blocks are not yet allocated, so that a crash does not leave it empty:
// four writes to the disk a mutation, each a virtio notification on a VM,
// and the next commit of the file system's journal waits for them. A temp
// whose blocks are allocated is written out later with the rest (a
// checkpoint's syncfs, or the kernel's writeback), and not at all when the
// next transaction replaces it first. What a crash leaves in such a file is
// what it may leave in any file the log names (old, empty, torn or zeros),
// and a restart does the log's records again (docs/reliability.md §6). A
// file system that cannot preallocate is left to allocate on write.
func preallocate(f *os.File, size int) {
	if size > 0 {
		_ = unix.Fallocate(int(f.Fd()), 0, 0, int64(size))
	}
}
