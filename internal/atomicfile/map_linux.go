package atomicfile

import (
	"os"
	"syscall"
)

// mapThreshold is the size from which [ReadOnly] maps a file: below it a
// copy costs less than setting up a mapping.
const mapThreshold = 256 << 10

// mapFile maps size bytes of f read-only, populated up front so that
// reading them takes no page faults. ok is false if the mapping failed (the
// caller then reads the file).
func mapFile(f *os.File, size int) (data []byte, ok bool) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	return data, err == nil
}
