package gitx

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
)

// TestDiscoverOutOfFiles runs discovery with no file descriptor left
// (docs/protocol.md §2): a repository whose HEAD cannot
// be opened is a failure to look, returned with its cause, never "not a
// git repository". A place with no repository needs no descriptor and is
// still ErrNotRepo. Not parallel: it lowers the process's limit.
func TestDiscoverOutOfFiles(t *testing.T) {
	repo := initRepo(t)
	plain := tempDir(t)
	if _, err := Discover(filepath.Dir(plain), environ.OS()); err == nil {
		t.Skip("the temp dir is inside a git repository")
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skip(err)
	}
	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	low := old
	low.Cur = uint64(len(open) + 8)
	if low.Cur > old.Cur {
		t.Skip("the open-file limit is already low")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	var filler []*os.File
	restore := func() {
		for _, f := range filler {
			f.Close()
		}
		filler = nil
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	}
	t.Cleanup(restore)
	for {
		f, err := os.Open(os.DevNull)
		if err != nil {
			if !errors.Is(err, syscall.EMFILE) {
				t.Fatalf("filling the descriptor table: %v", err)
			}
			break
		}
		filler = append(filler, f)
	}
	_, repoErr := Discover(repo, environ.OS())
	_, plainErr := Discover(plain, environ.OS())
	_, isGitErr := IsGitDir(filepath.Join(repo, ".git"))
	restore()

	if !errors.Is(repoErr, syscall.EMFILE) || errors.Is(repoErr, ErrNotRepo) {
		t.Errorf("Discover(repository, environ.OS()) = %v, want an error naming EMFILE", repoErr)
	}
	if !errors.Is(plainErr, ErrNotRepo) {
		t.Errorf("Discover(no repository, environ.OS()) = %v, want ErrNotRepo", plainErr)
	}
	if !errors.Is(isGitErr, syscall.EMFILE) {
		t.Errorf("IsGitDir = %v, want an error naming EMFILE", isGitErr)
	}
	if _, err := Discover(repo, environ.OS()); err != nil {
		t.Errorf("after the limit is restored: %v", err)
	}
}

// TestIsGitDirShapeFirst: a folder holding a file named HEAD but no
// objects and refs is no git dir, whatever HEAD holds; one with the shape
// and a valid HEAD is.
func TestIsGitDirShapeFirst(t *testing.T) {
	t.Parallel()
	dir := tempDir(t)
	writeFile(t, dir, "HEAD", "ref: refs/heads/main\n")
	if ok, err := IsGitDir(dir); ok || err != nil {
		t.Errorf("HEAD alone: IsGitDir = %v, %v; want false, nil", ok, err)
	}
	for _, sub := range []string{"objects", "refs"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := IsGitDir(dir); !ok || err != nil {
		t.Errorf("HEAD, objects and refs: IsGitDir = %v, %v; want true, nil", ok, err)
	}
	writeFile(t, dir, "HEAD", "not a ref\n")
	if ok, err := IsGitDir(dir); ok || err != nil {
		t.Errorf("an invalid HEAD: IsGitDir = %v, %v; want false, nil", ok, err)
	}
}
