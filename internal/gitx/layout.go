package gitx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/hexid"
)

// ErrNotRepo is returned by Discover and Open when git would find no
// repository from the starting directory and environment.
var ErrNotRepo = errors.New("not a git repository (or any parent up to the filesystem root)")

// Layout is the repository git would use from one place (a directory and
// the process environment), found without running git: used on every verb
// and on hot paths such as the statusline.
//
// It follows git's own set-up rules: GIT_DIR, GIT_WORK_TREE and
// GIT_COMMON_DIR are honoured; otherwise git's discovery walks up from the
// place, taking a ".git" directory or gitfile, or a directory that is itself
// a git dir (a bare repository), and stops at GIT_CEILING_DIRECTORIES and at
// a file-system boundary (unless GIT_DISCOVERY_ACROSS_FILESYSTEM). core.bare
// and core.worktree are read from the repository's config as git reads them
// (ignored in a linked worktree).
//
// Paths are absolute and lexically clean; symlinks are not resolved.
type Layout struct {
	Place        string // the directory discovery started from; git asked "here" runs there
	WorktreeRoot string // top of the current work tree; "" when there is none (bare, inside a git dir)
	GitDir       string // per-worktree git dir (.git, .git/worktrees/<id>, .git/modules/<m>, a bare dir)
	CommonDir    string // shared git dir (GitDir itself unless commondir or GIT_COMMON_DIR says otherwise)
	Linked       bool   // a linked worktree (GitDir has a commondir, or GIT_COMMON_DIR is set)
	Bare         bool   // the repository is bare: it has no main work tree
	// MainWorktree is the main work tree's root: core.worktree, else the
	// parent of a common dir named .git, else (a --separate-git-dir
	// repository) the current work tree when it is the main one, else the
	// root recorded in the exclude file by an earlier orc-state run there
	// (see MainWorktreeHint). "" for a bare repository, and when it cannot
	// be known from here.
	MainWorktree string
	// FromEnv is set when GIT_DIR, GIT_WORK_TREE or GIT_COMMON_DIR chose the
	// repository: git must then be run with the same environment.
	FromEnv bool
	// Env is the environment discovery read (GIT_DIR and the other
	// variables above), and the one git runs with when asked here.
	Env environ.List
	// RefFiles is true when refs are stored as files and packed-refs
	// (no extensions.refStorage other than "files"), so they may be read
	// by hand.
	RefFiles bool
	// plainFormat: the repository's format is one every supported git
	// reads (see plainFormat), a condition for answering ref questions
	// from the files in git's place (reffiles.go).
	plainFormat bool
}

// StateParent is the directory whose .orc is the repository's default
// state dir: the main work tree, or a bare repository's own directory
// (git worktree list's first entry, "/.git" stripped). It errors when the
// main work tree cannot be known from here (a linked worktree of a
// --separate-git-dir repository that orc-state has not seen from its main
// work tree).
func (l Layout) StateParent() (string, error) {
	switch {
	case l.Bare:
		return strings.TrimSuffix(l.CommonDir, string(filepath.Separator)+".git"), nil
	case l.MainWorktree != "":
		return l.MainWorktree, nil
	}
	return "", fmt.Errorf("this linked worktree belongs to a --separate-git-dir repository (%s) whose main work tree is not known here", l.CommonDir)
}

// Discover finds the repository git would use from dir with the
// environment env. It returns ErrNotRepo when git would find none.
func Discover(dir string, env environ.List) (Layout, error) {
	getenv := env.Get
	place, err := filepath.Abs(dir)
	if err != nil {
		return Layout{}, err
	}
	place = filepath.Clean(place)
	l := Layout{Place: place, Env: env}
	abs := func(p, base string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		return filepath.Clean(p)
	}
	workEnv := getenv("GIT_WORK_TREE")
	var found discovered
	if gd := getenv("GIT_DIR"); gd != "" {
		found.gitDir = abs(gd, place)
		ok, err := isGitDirectory(found.gitDir, getenv)
		if err != nil {
			return Layout{}, fmt.Errorf("discover git dir: %w", err)
		}
		if !ok {
			return Layout{}, fmt.Errorf("not a git repository: %s (GIT_DIR)", found.gitDir)
		}
		l.FromEnv = true
	} else if found, err = walkUp(place, getenv); err != nil {
		return Layout{}, err
	}
	l.GitDir = found.gitDir
	l.CommonDir, l.Linked, err = commonDir(l.GitDir, place, getenv)
	if err != nil {
		return Layout{}, err
	}
	if getenv("GIT_COMMON_DIR") != "" || workEnv != "" {
		l.FromEnv = true
	}
	cfg, err := readRepoConfig(filepath.Join(l.CommonDir, "config"))
	if err != nil {
		return Layout{}, err
	}
	l.RefFiles = cfg.refStorage == "" || strings.EqualFold(cfg.refStorage, "files")
	l.plainFormat = cfg.plainFormat

	// The work tree, as git's setup decides it. core.bare and
	// core.worktree count only outside a linked worktree.
	bare := !l.Linked && cfg.bare != nil && *cfg.bare
	coreWT := ""
	if !l.Linked {
		coreWT = cfg.worktree
	}
	switch {
	case workEnv != "":
		l.WorktreeRoot = abs(workEnv, place)
	case found.root != "" && coreWT == "" && !bare:
		l.WorktreeRoot = found.root // the directory holding .git
	case found.root != "" && coreWT == "", found.bareDir && coreWT == "", bare:
		// no work tree: a bare repository, or a place inside a git dir
	case coreWT != "":
		l.WorktreeRoot = abs(coreWT, l.GitDir)
	case getenv("GIT_IMPLICIT_WORK_TREE") != "" && !parseBool(getenv("GIT_IMPLICIT_WORK_TREE")):
	default:
		l.WorktreeRoot = place // GIT_DIR without a work tree: the place is its top
	}

	// The repository's main work tree, from the common config.
	l.Bare = cfg.bare != nil && *cfg.bare
	switch {
	case l.Bare:
	case cfg.worktree != "":
		l.MainWorktree = abs(cfg.worktree, l.CommonDir)
	case filepath.Base(l.CommonDir) == ".git":
		l.MainWorktree = filepath.Dir(l.CommonDir)
	case !l.Linked && l.WorktreeRoot != "":
		l.MainWorktree = l.WorktreeRoot
	default:
		l.MainWorktree = mainWorktreeFromHint(l.CommonDir)
	}
	return l, nil
}

// discovered is what walkUp found: a git dir, and the directory holding
// the .git it came from ("" when the git dir was found as a bare
// repository, bareDir set).
type discovered struct {
	gitDir, root string
	bareDir      bool
}

// walkUp is git's repository discovery without GIT_DIR.
func walkUp(place string, getenv func(string) string) (discovered, error) {
	ceiling := ceilingFor(place, getenv("GIT_CEILING_DIRECTORIES"))
	acrossFS := parseBool(getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"))
	dev, devOK := deviceOf(place)
	cur := place
	for {
		dotGit := filepath.Join(cur, ".git")
		fi, err := os.Stat(dotGit)
		isRepo := false
		if err == nil && fi.IsDir() {
			isRepo, err = isGitDirectory(dotGit, getenv)
		}
		switch {
		case err == nil && fi.Mode().IsRegular():
			gitDir, err := readGitFile(dotGit, getenv)
			if err != nil {
				return discovered{}, err
			}
			return discovered{gitDir: gitDir, root: cur}, nil
		case isRepo:
			return discovered{gitDir: dotGit, root: cur}, nil
		case err == nil, errors.Is(err, fs.ErrNotExist), isNotDir(err):
			// a .git that is no repository (an empty dir, a socket): git
			// looks on, as it does when there is none
		default:
			return discovered{}, fmt.Errorf("discover git dir: %w", err)
		}
		if ok, err := isGitDirectory(cur, getenv); err != nil {
			return discovered{}, fmt.Errorf("discover git dir: %w", err)
		} else if ok {
			return discovered{gitDir: cur, bareDir: true}, nil
		}
		parent := filepath.Dir(cur)
		if parent == cur || (ceiling != "" && len(parent) <= len(ceiling)) {
			return discovered{}, ErrNotRepo
		}
		if d, ok := deviceOf(parent); !acrossFS && devOK && ok && d != dev {
			return discovered{}, ErrNotRepo // git stops at a file-system boundary
		}
		cur = parent
	}
}

// ceilingFor returns the deepest GIT_CEILING_DIRECTORIES entry that is a
// proper ancestor of place ("" for none): discovery never looks there or
// above. Relative entries are ignored, as git ignores them.
func ceilingFor(place, list string) string {
	best := ""
	for _, c := range filepath.SplitList(list) {
		if c == "" || !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		if c != place && isWithin(place, c) && len(c) > len(best) {
			best = c
		}
	}
	return best
}

// isWithin reports whether path is dir or below it (lexically).
func isWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// isGitDirectory is git's is_git_directory: a valid HEAD, an objects
// directory (or GIT_OBJECT_DIRECTORY) and a refs directory in the common
// dir. What is absent (ENOENT, ENOTDIR) is an answer; any other failure to
// look (too many open files, out of memory, permission denied, an I/O
// error) is returned as an error, never taken for "no repository here".
// The shape is checked with stats before HEAD is opened, so a folder that
// merely holds an unreadable file named HEAD is still no repository.
func isGitDirectory(dir string, getenv func(string) string) (bool, error) {
	head := filepath.Join(dir, "HEAD")
	fi, err := os.Lstat(head)
	if err != nil {
		return false, unlessAbsent(err)
	}
	common, _, err := commonDir(dir, dir, func(string) string { return "" })
	if err != nil {
		return false, err
	}
	if env := getenv("GIT_COMMON_DIR"); env != "" {
		common = env
	}
	objects := filepath.Join(common, "objects")
	if env := getenv("GIT_OBJECT_DIRECTORY"); env != "" {
		objects = env
	}
	for _, p := range []string{objects, filepath.Join(common, "refs")} {
		fi, err := os.Stat(p)
		if err != nil {
			return false, unlessAbsent(err)
		}
		if !fi.IsDir() {
			return false, nil
		}
	}
	return validHEAD(head, fi)
}

// unlessAbsent is nil for an error that says a path does not exist (or a
// part of it is no directory), and err otherwise.
func unlessAbsent(err error) error {
	if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
		return nil
	}
	return err
}

// validHEAD is git's validate_headref on the file at path (fi its Lstat):
// a symlink into refs/, a symbolic ref "ref: refs/...", or an object id.
// A HEAD that cannot be read is an error, not an invalid HEAD.
func validHEAD(path string, fi fs.FileInfo) (bool, error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		if err != nil {
			return false, unlessAbsent(err)
		}
		return strings.HasPrefix(target, "refs/"), nil
	}
	if !fi.Mode().IsRegular() {
		return false, nil
	}
	b, err := readSmall(path, 256)
	if err != nil {
		return false, unlessAbsent(err)
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.HasPrefix(strings.TrimSpace(ref), "refs/"), nil
	}
	return isObjectID(s), nil
}

// commonDir returns the common dir of gitDir: GIT_COMMON_DIR, else the
// commondir file (relative to gitDir), else gitDir. linked is git's
// "has_common".
func commonDir(gitDir, place string, getenv func(string) string) (dir string, linked bool, err error) {
	if env := getenv("GIT_COMMON_DIR"); env != "" {
		if !filepath.IsAbs(env) {
			env = filepath.Join(place, env)
		}
		return filepath.Clean(env), true, nil
	}
	b, err := atomicfile.ReadFile(filepath.Join(gitDir, "commondir"))
	switch {
	case err == nil:
		c := strings.TrimRight(string(b), "\r\n")
		if c == "" {
			return gitDir, false, nil
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		return filepath.Clean(c), true, nil
	case errors.Is(err, fs.ErrNotExist), isNotDir(err):
		return gitDir, false, nil
	default:
		return "", false, fmt.Errorf("read commondir: %w", err)
	}
}

// readGitFile parses a ".git" file ("gitdir: <path>") and returns the
// absolute git dir it points to, which must be a git directory (git stops
// with "not a git repository" otherwise, and so does this).
func readGitFile(path string, getenv func(string) string) (string, error) {
	b, err := readSmall(path, 1<<16)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimRight(line, "\r")
	target, ok := strings.CutPrefix(line, "gitdir: ")
	if !ok {
		return "", fmt.Errorf("%s: invalid gitfile format (no \"gitdir: \" prefix)", path)
	}
	if target == "" {
		return "", fmt.Errorf("%s: empty gitdir", path)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	target = filepath.Clean(target)
	ok, err = isGitDirectory(target, getenv)
	if err != nil {
		return "", fmt.Errorf("discover git dir: %w", err)
	}
	if !ok {
		return "", fmt.Errorf("%s: not a git repository: %s", path, target)
	}
	return target, nil
}

// readSmall reads at most max bytes of a file.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, max)
	n, err := f.Read(buf)
	if n > 0 || err == nil {
		return buf[:n], nil
	}
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	return nil, err
}

// CurrentBranch reads HEAD of the current worktree: "ref: refs/heads/X"
// gives ("X", false, nil), including on an unborn branch; a detached HEAD
// gives ("", true, nil). It reads the file by hand when refs are files, and
// asks git otherwise (a reftable repository).
func (l Layout) CurrentBranch() (branch string, detached bool, err error) {
	if !l.RefFiles {
		return l.currentBranchFromGit()
	}
	b, err := atomicfile.ReadFile(filepath.Join(l.GitDir, "HEAD"))
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
	if isObjectID(s) {
		return "", true, nil
	}
	return "", false, fmt.Errorf("HEAD has unexpected content %q", truncate(s, 80))
}

// isObjectID reports whether s is a full SHA-1 (40) or SHA-256 (64) object
// id in hex.
func isObjectID(s string) bool { return (len(s) == 40 || len(s) == 64) && hexid.Valid(s, 40, 64) }

// IsClaim reports whether s can name a commit: 7 to 64 hex digits (an
// abbreviated or full SHA-1 or SHA-256 object id).
func IsClaim(s string) bool { return hexid.Commit(s) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// IsGitDir reports whether dir is a git directory (a .git folder, or a
// bare repository), by git's own test.
// A failure to look is an error.
func IsGitDir(dir string) (bool, error) {
	return isGitDirectory(dir, func(string) string { return "" })
}
