package board

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/orc-state/orc-state/internal/state"
)

// TestSessionFilesReadNoSymlink: the board reads a session's files
// through no symlink and nothing but a regular file. A missing file, or a
// session without a folder, is nothing to read (nil, true); a symlink, a
// folder or a FIFO in a file's place cannot be read (false), and the open
// of a FIFO does not block; a session folder or files folder that is a
// symlink, or a file, is an error.
func TestSessionFilesReadNoSymlink(t *testing.T) {
	root := t.TempDir()
	d := &state.Dir{Path: filepath.Join(root, ".orc")}
	outside := filepath.Join(root, "outside.json")
	write(t, outside, "secret")

	files := d.FilesDir("s")
	write(t, filepath.Join(files, "slices.json"), `{"slices": []}`)
	write(t, filepath.Join(files, "empty.json"), "")
	must(t, os.Symlink(outside, filepath.Join(files, "link.json")))
	must(t, os.Mkdir(filepath.Join(files, "folder.json"), 0o755))
	fifo := mkfifo(filepath.Join(files, "fifo.json")) == nil
	f, err := openFiles(d, "s")
	if err != nil || f == nil {
		t.Fatalf("openFiles = %v, %v", f, err)
	}
	defer f.Close()
	for _, c := range []struct {
		name string
		want string
		ok   bool
		nil  bool
	}{
		{"slices.json", `{"slices": []}`, true, false},
		{"empty.json", "", true, false},
		{"missing.json", "", true, true},
		{"link.json", "", false, true},
		{"folder.json", "", false, true},
		{"fifo.json", "", false, true},
	} {
		if c.name == "fifo.json" && !fifo {
			continue
		}
		data, ok := f.read(c.name)
		if string(data) != c.want || ok != c.ok || (data == nil) != c.nil {
			t.Errorf("read(%s) = %q (nil %v), %v; want %q (nil %v), %v", c.name, data, data == nil, ok, c.want, c.nil, c.ok)
		}
	}

	// No folder: nothing to read.
	if f, err := openFiles(d, "gone"); f != nil || err != nil {
		t.Errorf("openFiles of a session without a folder = %v, %v; want nil, nil", f, err)
	}
	var none *sessionFiles
	if data, ok := none.read("slices.json"); data != nil || !ok {
		t.Errorf("read without a folder = %q, %v; want nil, true", data, ok)
	}

	// A session folder or files folder that is a symlink or a file.
	must(t, os.Symlink(filepath.Join(d.Path, "s"), filepath.Join(d.Path, "linked")))
	must(t, os.MkdirAll(filepath.Join(d.Path, "inner"), 0o755))
	must(t, os.Symlink(files, filepath.Join(d.Path, "inner", "files")))
	write(t, filepath.Join(d.Path, "plain"), "x")
	for _, id := range []string{"linked", "inner", "plain"} {
		if f, err := openFiles(d, id); f != nil || err == nil {
			t.Errorf("openFiles(%s) = %v, %v; want an error", id, f, err)
		}
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(data), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
