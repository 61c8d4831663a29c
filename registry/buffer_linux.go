package registry

import (
	"runtime"
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), which the
// syscall package does not name: fault the range in, writable, now.
const madvPopulateWrite = 23

// populate makes the pages of b resident and writable in one system call:
// copying into a fresh 4 MB buffer faults its pages in one by one, a
// thousand page faults, on a VM a large part of what the copy costs. It is
// advice: a kernel that refuses it leaves the pages to fault in as before,
// and b's contents are unchanged either way.
func populate(b []byte) {
	const page = 4 << 10
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start, end := (base+page-1)&^(page-1), (base+uintptr(len(b)))&^(page-1)
	if end > start {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
	}
	runtime.KeepAlive(b)
}
