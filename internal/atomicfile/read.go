package atomicfile

import "io"

// ReadFile reads a whole file through [Open], so that a writer may replace
// it meanwhile on every platform. Every read of a file under the state
// directory uses it (or Open).
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
