//go:build !unix

package board

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/state"
)

// sessionFiles is one session's files folder, open for reading by name,
// through an os.Root: no symlink followed.
type sessionFiles struct{ root *os.Root }

// openFiles opens session id's files folder as a root, after checking
// that neither it nor its session folder is a symlink (or anything but a
// folder): as the state dir's readers do, the board reads through no
// symlink. A session without a folder is (nil, nil).
func openFiles(d *state.Dir, id string) (*sessionFiles, error) {
	for _, p := range []string{filepath.Join(d.Path, id), d.FilesDir(id)} {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a folder", p)
		}
	}
	root, err := os.OpenRoot(d.FilesDir(id))
	if err != nil {
		return nil, err
	}
	return &sessionFiles{root: root}, nil
}

func (f *sessionFiles) Close() error { return f.root.Close() }

// read reads the regular file name: nil and true when there is none (or no
// folder: f is nil), false when it cannot be read or is not a regular
// file (a symlink included).
func (f *sessionFiles) read(name string) ([]byte, bool) {
	if f == nil {
		return nil, true
	}
	st, err := f.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	data, err := f.root.ReadFile(name)
	return data, err == nil
}
