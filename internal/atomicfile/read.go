package atomicfile

import (
	"errors"
	"io"
)

// ReadFile reads a whole file through [Open], so that a writer may replace
// it meanwhile on every platform. Every read of a file under the state
// directory uses it (or Open).
//
// The buffer is sized from the file's length, as os.ReadFile does: growing
// it by doubling would copy a large registry several times over and touch
// twice its size in fresh pages, which is most of a read verb's cost at
// 10,000 sessions.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() < 1<<31 {
		size = int(st.Size()) + 1 // one more byte, so a full read ends in io.EOF
	}
	data := make([]byte, 0, size)
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
