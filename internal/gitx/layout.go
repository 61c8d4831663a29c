package gitx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/orc-state/orc-state/internal/hexid"
)

// ErrNotRepo is returned by Discover and Open when no .git is found between the
// starting directory and the filesystem root.
var ErrNotRepo = errors.New("not a git repository (or any parent up to the filesystem root)")

// Layout is the result of cheap, hand-rolled discovery (no go-git, no
// subprocess): used on hot paths.
//
// Paths are absolute and lexically clean; symlinks are not resolved.
type Layout struct {
	WorktreeRoot string // absolute top of the current worktree (dir containing .git file/dir)
	GitDir       string // absolute per-worktree git dir (.git, or .git/worktrees/<id>, or .git/modules/<m>)
	CommonDir    string // absolute common dir (GitDir itself unless GitDir/commondir exists)
}

// MainRoot is the main worktree root: filepath.Dir(CommonDir) when
// CommonDir's base is ".git"; for a bare or otherwise odd layout (submodule
// git dirs under .git/modules) it returns WorktreeRoot.
func (l Layout) MainRoot() string {
	if filepath.Base(l.CommonDir) == ".git" {
		return filepath.Dir(l.CommonDir)
	}
	return l.WorktreeRoot
}

// IsLinked reports whether the layout is a linked worktree (its GitDir differs
// from the CommonDir).
func (l Layout) IsLinked() bool { return l.GitDir != l.CommonDir }

// Discover walks up from dir to find .git (a directory, or a file
// "gitdir: <path>" with a relative or absolute path) and reads
// <gitdir>/commondir if present. It returns ErrNotRepo when there is no .git
// up to the filesystem root. Like go-git, it ignores GIT_DIR and friends.
//
// Cost: one stat per directory level, plus one read for commondir (and a read
// and a stat for a .git file).
func Discover(dir string) (Layout, error) {
	cur, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	for {
		dotGit := filepath.Join(cur, ".git")
		fi, err := os.Stat(dotGit)
		switch {
		case err == nil && fi.IsDir():
			return layoutFor(cur, dotGit)
		case err == nil && fi.Mode().IsRegular():
			gitDir, err := readGitFile(dotGit)
			if err != nil {
				return Layout{}, err
			}
			return layoutFor(cur, gitDir)
		case err == nil:
			// Something odd named .git (socket, device): not a repository.
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		default:
			return Layout{}, fmt.Errorf("discover git dir: %w", err)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return Layout{}, ErrNotRepo
		}
		cur = parent
	}
}

// readGitFile parses a ".git" file ("gitdir: <path>") and returns the
// absolute git dir it points to, checking that it is a directory.
func readGitFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimRight(line, "\r")
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: invalid gitfile format (no \"gitdir:\" prefix)", path)
	}
	target = strings.TrimSpace(target)
	if target == "" {
		return "", fmt.Errorf("%s: empty gitdir", path)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	target = filepath.Clean(target)
	fi, err := os.Stat(target)
	if err != nil {
		return "", fmt.Errorf("%s: gitdir %s: %w", path, target, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: gitdir %s is not a directory", path, target)
	}
	return target, nil
}

func layoutFor(root, gitDir string) (Layout, error) {
	l := Layout{WorktreeRoot: root, GitDir: gitDir, CommonDir: gitDir}
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	switch {
	case err == nil:
		c := strings.TrimSpace(string(b))
		if c == "" {
			break
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		l.CommonDir = filepath.Clean(c)
	case errors.Is(err, fs.ErrNotExist):
	default:
		return Layout{}, fmt.Errorf("read commondir: %w", err)
	}
	return l, nil
}

// CurrentBranch reads <GitDir>/HEAD by hand: "ref: refs/heads/X" gives
// ("X", false, nil), including on an unborn branch; a detached HEAD (a bare
// object id) gives ("", true, nil). Anything else is an error.
func (l Layout) CurrentBranch() (branch string, detached bool, err error) {
	b, err := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	if err != nil {
		return "", false, fmt.Errorf("read HEAD: %w", err)
	}
	return parseHEAD(b)
}

// parseHEAD interprets the content of a HEAD file.
func parseHEAD(b []byte) (branch string, detached bool, err error) {
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		if name, ok := strings.CutPrefix(ref, "refs/heads/"); ok && name != "" {
			return name, false, nil
		}
		return "", false, fmt.Errorf("HEAD is a symbolic ref outside refs/heads: %q", ref)
	}
	if (len(s) == 40 || len(s) == 64) && hexid.Valid(s, 40, 64) {
		return "", true, nil
	}
	return "", false, fmt.Errorf("HEAD has unexpected content %q", truncate(s, 80))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
