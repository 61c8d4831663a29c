package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// entries lists the names in dir, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestWriteFileCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "orc.json")

	if err := WriteFile(path, []byte("first\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); string(got) != "first\n" {
		t.Fatalf("content = %q, want %q", got, "first\n")
	}
	// perm is applied exactly, whatever the umask.
	if got := mode(t, path); got != 0o640 {
		t.Fatalf("mode = %o, want 640", got)
	}

	if err := WriteFile(path, []byte("second, longer content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); string(got) != "second, longer content\n" {
		t.Fatalf("content = %q after replace", got)
	}
	if got := mode(t, path); got != 0o600 {
		t.Fatalf("mode = %o after replace, want 600", got)
	}

	// Shorter content must not leave a tail of the old one.
	if err := WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); string(got) != "x" {
		t.Fatalf("content = %q after shrinking", got)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"orc.json"}) {
		t.Fatalf("dir holds %q, want only orc.json (no temp left)", got)
	}
}

func TestWriteFileEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty")
	if err := WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); len(got) != 0 {
		t.Fatalf("content = %q, want empty", got)
	}
}

func TestWriteFileRelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := WriteFile("rel.txt", []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(dir, "rel.txt")); string(got) != "hi" {
		t.Fatalf("content = %q", got)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"rel.txt"}) {
		t.Fatalf("dir holds %q", got)
	}
}

func TestWriteFileOntoDirectoryRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "target")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "inside"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}

	if err := WriteFile(path, []byte("data"), 0o644); err == nil {
		t.Fatal("WriteFile onto a directory succeeded")
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"target"}) {
		t.Fatalf("dir holds %q after failure, want only target (temp removed)", got)
	}
	if got := mustRead(t, filepath.Join(path, "inside")); string(got) != "keep" {
		t.Fatalf("directory content changed: %q", got)
	}
}

func TestWriteFileRenameFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("injected rename failure")
	inject(t, func(op Op, _ string) error {
		if op == OpRename {
			return boom
		}
		return nil
	})

	err := WriteFile(path, []byte("new"), 0o644)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if got := mustRead(t, path); string(got) != "old" {
		t.Fatalf("content = %q, want old", got)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"state"}) {
		t.Fatalf("dir holds %q after failure, want only state", got)
	}
}

func TestWriteFileMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "file")
	if err := WriteFile(path, []byte("x"), 0o644); err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
}

func TestWriteFileNoName(t *testing.T) {
	if err := WriteFile(t.TempDir()+string(filepath.Separator), []byte("x"), 0o644); err == nil {
		t.Fatal("WriteFile with a trailing separator succeeded")
	}
}

// symlinkSetup makes dir/.orc/link -> outside/secret and returns the paths.
func symlinkSetup(t *testing.T, dangling bool) (link, target string) {
	t.Helper()
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	orc := filepath.Join(root, ".orc")
	for _, d := range []string{outside, orc} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target = filepath.Join(outside, "secret")
	if !dangling {
		if err := os.WriteFile(target, []byte("untouched"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link = filepath.Join(orc, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	return link, target
}

func checkSymlinkUntouched(t *testing.T, link, target string, dangling bool) {
	t.Helper()
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("link was replaced or removed (err %v)", err)
	}
	b, err := os.ReadFile(target)
	if dangling {
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("dangling target was created (err %v, content %q)", err, b)
		}
		return
	}
	if err != nil || string(b) != "untouched" {
		t.Fatalf("target changed: %q, %v", b, err)
	}
	if got := entries(t, filepath.Dir(link)); !slices.Equal(got, []string{"link"}) {
		t.Fatalf(".orc holds %q, want only the link", got)
	}
}

func TestWriteFileRefusesSymlink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		link, target := symlinkSetup(t, dangling)
		err := WriteFile(link, []byte("evil"), 0o644)
		if !errors.Is(err, ErrSymlink) {
			t.Fatalf("dangling=%v: err = %v, want ErrSymlink", dangling, err)
		}
		checkSymlinkUntouched(t, link, target, dangling)
	}
}

func TestAppendRefusesSymlink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		link, target := symlinkSetup(t, dangling)
		err := Append(link, []byte("evil\n"), 0o644)
		if !errors.Is(err, ErrSymlink) {
			t.Fatalf("dangling=%v: err = %v, want ErrSymlink", dangling, err)
		}
		checkSymlinkUntouched(t, link, target, dangling)
	}
}

func TestAppendCreatesAndExtends(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")

	if err := Append(path, []byte("{\"seq\":1}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, path); got != 0o640 {
		t.Fatalf("mode = %o, want 640", got)
	}
	if err := Append(path, []byte("{\"seq\":2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// perm only applies when the file is created.
	if got := mode(t, path); got != 0o640 {
		t.Fatalf("mode = %o after second append, want 640", got)
	}
	if err := Append(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	want := "{\"seq\":1}\n{\"seq\":2}\n"
	if got := mustRead(t, path); string(got) != want {
		t.Fatalf("content = %q, want %q", got, want)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"journal.jsonl"}) {
		t.Fatalf("dir holds %q", got)
	}
}

func TestAppendMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "progress.md")
	if err := Append(path, []byte("x"), 0o644); err == nil {
		t.Fatal("Append into a missing directory succeeded")
	}
}

func TestIsTemp(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{".orc.json.tmp-123456789", true},
		{".checkpoint.md.tmp-1", true},
		{".a.tmp-0", true},
		{".x.tmp-y.tmp-42", true}, // base containing the infix
		{"sess/files/.slices.json.tmp-987", true},
		{"orc.json.tmp-123", false}, // no leading dot
		{".orc.json.tmp-", false},   // no random part
		{".orc.json.tmp-12a", false},
		{".tmp-123", false},  // empty base
		{"..tmp-123", false}, // empty base
		{".orc.json", false}, // a hidden file, not a temp
		{".lock", false},     // the lock file
		{"orc.json", false},
		{"", false},
		{".", false},
	}
	for _, tt := range tests {
		if got := IsTemp(tt.name); got != tt.want {
			t.Errorf("IsTemp(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}

	// The names os.CreateTemp really produces for our pattern must match.
	dir := t.TempDir()
	for _, base := range []string{"orc.json", "checkpoint.md", "a"} {
		f, err := os.CreateTemp(dir, "."+base+tempInfix+"*")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if !IsTemp(f.Name()) {
			t.Errorf("IsTemp(%q) = false for a real temp name", filepath.Base(f.Name()))
		}
	}
}

func TestMkdirAll(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "c")
	if _, err := MkdirAll(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		t.Fatalf("dir not created: %v", err)
	}
	// Existing: no error.
	if _, err := MkdirAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := MkdirAll(root); err != nil {
		t.Fatal(err)
	}

	// A file in the way is an error.
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := MkdirAll(filepath.Join(file, "sub")); err == nil {
		t.Fatal("MkdirAll under a file succeeded")
	}
	if _, err := MkdirAll(file); err == nil {
		t.Fatal("MkdirAll on a file succeeded")
	}

	// Relative paths work too.
	t.Chdir(root)
	if _, err := MkdirAll(filepath.Join("rel", "x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "rel", "x")); err != nil || !fi.IsDir() {
		t.Fatalf("relative dir not created: %v", err)
	}
}

func TestWriteFileThenRead(t *testing.T) {
	// A round trip of binary data, including NULs and no trailing newline.
	path := filepath.Join(t.TempDir(), "bin")
	data := bytes.Repeat([]byte{0, 1, 2, 0xff}, 10000)
	if err := WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); !bytes.Equal(got, data) {
		t.Fatal("content differs")
	}
}

// TestWriteCache: the cache writer (no fsync) keeps WriteFile's other
// promises: exact mode, no temp left behind, no write through a link.
func TestWriteCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "context-s.json")
	for _, content := range []string{"first, longer\n", "x"} {
		if err := WriteCache(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, path); string(got) != content {
			t.Fatalf("content = %q, want %q", got, content)
		}
	}
	if got := mode(t, path); got != 0o600 {
		t.Fatalf("mode = %o, want 600", got)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"context-s.json"}) {
		t.Fatalf("dir holds %q, want only the file", got)
	}
	for _, dangling := range []bool{false, true} {
		link, target := symlinkSetup(t, dangling)
		if err := WriteCache(link, []byte("evil"), 0o600); !errors.Is(err, ErrSymlink) {
			t.Fatalf("dangling=%v: err = %v, want ErrSymlink", dangling, err)
		}
		checkSymlinkUntouched(t, link, target, dangling)
	}
}
