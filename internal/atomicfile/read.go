package atomicfile

import (
	"errors"
	"io"
	"os"
)

// ReadFile reads a whole file through [Open], so that a writer may replace
// it meanwhile on every platform. Every read of a file under the state
// directory uses it (or Open, or [ReadOnly]).
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, sizeOf(f))
}

// ReadOnly is ReadFile for bytes the caller only reads and may keep until
// the process exits (orc.json). On Linux a large regular file is mapped
// read-only instead of copied: at 10,000 sessions a copy of the 4.3 MB
// registry costs a thousand page faults, most of a read verb's time, while
// a populated mapping of the page cache costs one system call. The bytes
// of a mapping are never unmapped; writing them faults.
//
// A mapping is of the file that was opened: a writer that renames a new
// file over it (every orc-state writer) leaves it intact. Another program
// that truncates the file in place while it is mapped makes a later read
// of the lost pages fault; a process that reads mappings therefore sets
// debug.SetPanicOnFault and reports such a panic as a file changed while
// it was read (see [IsFault]).
func ReadOnly(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := sizeOf(f)
	if size >= mapThreshold {
		if data, ok := mapFile(f, size); ok {
			return data, nil
		}
	}
	return readAll(f, size)
}

// IsFault reports whether a recovered panic value is a memory fault (with
// debug.SetPanicOnFault set): a mapping from [ReadOnly] whose file was
// truncated in place under it.
func IsFault(r any) bool {
	_, ok := r.(interface{ Addr() uintptr })
	return ok
}

// sizeOf is the length of the regular file f, or -1 when it has none to
// trust (a pipe, a device) or is too large to hold.
func sizeOf(f *os.File) int {
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() < 1<<31 {
		return int(st.Size())
	}
	return -1
}

// readAll reads f to its end. The buffer is sized from the file's length
// (size, -1 when unknown), as os.ReadFile does: growing it by doubling
// would copy a large registry several times over and touch twice its size
// in fresh pages.
func readAll(f *os.File, size int) ([]byte, error) {
	buf := 512
	if size >= 0 {
		buf = size + 1 // one more byte, so a full read ends in io.EOF
	}
	data := make([]byte, 0, buf)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) { // the file grew since the stat
			data = append(data, 0)[:len(data)]
		}
	}
}
