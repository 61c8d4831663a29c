package state

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
)

// Resolve finds the state dir, first that applies (docs/protocol.md §2):
//
//   - flagDir (--dir), relative to cwd when relative;
//   - $ORC_STATE_DIR, which must be absolute (a variable outlives the
//     directory it was set in; a drive-relative Windows path such as
//     \orc\st is not absolute);
//   - <main work tree>/.orc, shared by every linked worktree, or
//     <bare repository>/.orc for the worktrees of a bare repository, where
//     the repository is the one git would use from cwd and the
//     environment env (GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR honoured).
//
// A state dir that is a work tree's root, or that contains a git dir, is
// refused (exit 2): orc-state's sweeps would then look at the repository's
// own files. Resolve writes nothing.
func Resolve(flagDir, cwd string, env environ.List) (*Dir, error) {
	d := &Dir{}
	l, err := gitx.Discover(cwd, env)
	switch {
	case err == nil:
		d.Git = &l
	case errors.Is(err, gitx.ErrNotRepo):
	case cannotLook(err):
		// Not a fact about the repository: say what went wrong.
		return nil, fault.Wrap(fault.Invalid, err, "cannot look for the git repository").WithHint("%s", lookHint(err))
	case env.Get("GIT_DIR") != "":
		return nil, fault.Usagef("%v", err).WithHint("unset GIT_DIR, or point it at a repository")
	default:
		return nil, fault.Wrap(fault.Invalid, err, "cannot read the git repository")
	}
	switch fromEnv := env.Get("ORC_STATE_DIR"); {
	case flagDir != "":
		d.Path = absFrom(cwd, flagDir)
	case fromEnv != "":
		if !IsAbsolute(runtime.GOOS, fromEnv) {
			return nil, fault.Usagef("ORC_STATE_DIR=%q is not an absolute path", fromEnv).
				WithHint("set ORC_STATE_DIR to an absolute path, or pass --dir")
		}
		d.Path = filepath.Clean(fromEnv)
	case d.Git != nil:
		parent, err := d.Git.StateParent()
		if err != nil {
			return nil, fault.Usagef("%v", err).
				WithHint("run a verb that writes (e.g. orc-state init) once in the repository's main work tree, which records where it is; or pass --dir=DIR, DIR the .orc folder in the main work tree")
		}
		d.Path = filepath.Join(parent, ".orc")
	default:
		return nil, fault.Usagef("not inside a git repository; pass --dir or set ORC_STATE_DIR")
	}
	if err := refuseStateDir(d.Path, d.Git); err != nil {
		return nil, err
	}
	return d, nil
}

// cannotLook reports whether err is a failure of the system to answer (no
// file descriptor or memory left, permission denied, an I/O error) rather
// than an answer about the repository.
func cannotLook(err error) bool {
	var errno syscall.Errno
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return false // an answer: nothing there
	}
	return errors.As(err, &errno) || errors.Is(err, fs.ErrPermission)
}

// lookHint is the way out of a failure to look (cannotLook), by its cause.
func lookHint(err error) string {
	switch {
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return "the process may open no more files (ulimit -n, or the system's limit): raise the limit or close other programs, then run the command again"
	case errors.Is(err, syscall.ENOMEM):
		return "the system is out of memory: free some, then run the command again"
	case errors.Is(err, fs.ErrPermission):
		return "orc-state may not read that path: fix its permissions, or run as the user who owns the repository"
	}
	return "check the disk and the path named, then run the command again"
}

// IsAbsolute reports whether p is an absolute path on goos: "/..." on Unix;
// on Windows a drive letter with a separator (C:\x, C:/x) or a UNC path
// (\\server\share). \x and C:x are relative there (to the current drive or
// the drive's current directory).
func IsAbsolute(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	sep := func(c byte) bool { return c == '\\' || c == '/' }
	if len(p) >= 3 && p[1] == ':' && sep(p[2]) &&
		('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
		return true
	}
	return len(p) >= 3 && sep(p[0]) && sep(p[1]) && !sep(p[2])
}

// absFrom makes p absolute against cwd.
func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if vol := filepath.VolumeName(cwd); vol != "" && (strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/")) {
		return filepath.Clean(vol + p) // Windows: rooted on the current drive
	}
	return filepath.Join(cwd, p)
}

// refuseStateDir refuses a state dir that is the root of a work tree (its
// own .git, the layout's work tree or main work tree) or that contains a git
// dir (the repository's, or is one itself).
func refuseStateDir(path string, l *gitx.Layout) error {
	hint := "pass --dir (or ORC_STATE_DIR) naming a folder of its own, such as <work tree>/.orc"
	if _, err := os.Lstat(filepath.Join(path, ".git")); err == nil {
		return fault.Usagef("state dir %s is the root of a git work tree", path).WithHint("%s", hint)
	}
	if isGit, err := gitx.IsGitDir(path); err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot check the state dir %s", path).WithHint("%s", lookHint(err))
	} else if isGit {
		return fault.Usagef("state dir %s is a git dir", path).WithHint("%s", hint)
	}
	if l == nil {
		return nil
	}
	for _, root := range []string{l.WorktreeRoot, l.MainWorktree} {
		if root != "" && gitx.SameDir(root, path) {
			return fault.Usagef("state dir %s is the root of a git work tree", path).WithHint("%s", hint)
		}
	}
	for _, gd := range []string{l.GitDir, l.CommonDir} {
		if within(gd, path) {
			return fault.Usagef("state dir %s contains the git dir %s", path, gd).WithHint("%s", hint)
		}
	}
	return nil
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// ensure creates the state dir when missing (never its parents: a mistyped
// --dir must not grow a tree) and, inside a work tree, makes sure git
// ignores it, whoever created it. It runs before the first write into a
// state dir (one without orc-state's lock) and returns what it created.
func (d *Dir) ensure() (*made, error) {
	exists, err := d.checkDir()
	if err != nil {
		return nil, err
	}
	m := &made{}
	if !exists {
		parent := filepath.Dir(d.Path)
		if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
			return nil, fault.Usagef("the state dir's parent %s does not exist", parent).
				WithHint("create it first, or pass another --dir")
		}
		if m.dirs, err = atomicfile.MkdirAll(d.Path); err != nil {
			d.undoEnsure(m, false)
			return nil, refused(err, "cannot create the state dir")
		}
	}
	if err := d.ignore(m); err != nil {
		d.undoEnsure(m, false)
		return nil, err
	}
	return m, nil
}

// ignore adds the state dir to the common dir's info/exclude when it lies
// inside one of the repository's work trees and git does not ignore it
// yet. In a --separate-git-dir repository's main work tree it also records
// the main work tree's root there (see gitx.Layout.MainWorktreeHint). What
// it appends is recorded in m, so a transaction that writes nothing after
// all can take it back.
func (d *Dir) ignore(m *made) error {
	if d.Git == nil {
		return nil
	}
	exclude := filepath.Join(d.Git.CommonDir, "info", "exclude")
	data, err := os.ReadFile(exclude)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fault.Wrap(fault.Invalid, err, "cannot read %s", exclude)
	}
	lines := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		lines[strings.TrimSpace(line)] = true
	}
	var add []string
	if hint, needed := d.Git.MainWorktreeHint(); needed && !lines[hint] {
		add = append(add, hint)
	}
	if rel, ok := d.insideWorktree(); ok {
		pattern := "/" + filepath.ToSlash(rel) + "/"
		listed := lines[pattern] || lines[strings.TrimPrefix(pattern, "/")] || lines[strings.TrimSuffix(pattern, "/")]
		if !listed && !d.ignoredByGit() {
			add = append(add, "# orc-state: session state", pattern)
		}
	}
	if len(add) == 0 {
		return nil
	}
	created, err := atomicfile.MkdirAll(filepath.Dir(exclude))
	m.dirs = append(created, m.dirs...) // removed after the state dir
	if err != nil {
		return refused(err, "cannot create "+filepath.Dir(exclude))
	}
	text := strings.Join(add, "\n") + "\n"
	if len(data) > 0 && data[len(data)-1] != '\n' {
		text = "\n" + text
	}
	m.exclude, m.excludeSize = exclude, int64(len(data))
	if data == nil {
		m.excludeSize = -1
	}
	if err := atomicfile.Append(exclude, []byte(text), 0o644); err != nil {
		m.exclude = "" // Append left nothing
		return refused(err, "cannot add the state dir to "+exclude)
	}
	return nil
}

// insideWorktree returns the state dir relative to the work tree of the
// repository that contains it (the main one, the current one, or a linked
// one), if any.
func (d *Dir) insideWorktree() (string, bool) {
	roots := []string{d.Git.MainWorktree, d.Git.WorktreeRoot}
	if list, err := d.Git.Worktrees(); err == nil {
		for _, w := range list {
			roots = append(roots, w.Path)
		}
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		if rel, err := filepath.Rel(root, d.Path); err == nil && rel != "." && within(d.Path, root) {
			return rel, true
		}
	}
	return "", false
}

// ignoredByGit asks git whether the state dir is ignored already (run once,
// when the state dir gets its first write; a missing git answers "no").
func (d *Dir) ignoredByGit() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := d.Git.Run(ctx, "check-ignore", "-q", d.Path+string(filepath.Separator))
	return err == nil
}
