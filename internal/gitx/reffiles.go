package gitx

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// Ref questions answered from the ref files. Starting git costs about
// 20 ms of CPU, and verbs often ask only "which refs are under refs/orc/"
// or "is X a branch". Where refs are stored as files (git's files
// backend: a loose ref is <common dir>/<name> holding an object id, and
// <common dir>/packed-refs lists the others; a loose ref overrides a
// packed one), those questions are answered by reading the files as git
// reads them. Git stays the oracle: a file answer is given only when it
// is exactly what git would answer, and ok false sends the caller to git
// as before, on any doubt:
//
//   - git would not read these files, or might refuse the repository:
//     refs not stored as files (reftable), a format version or extension
//     not every supported git knows (plainFormat), no git program on PATH
//     (nothing is computed in git's place), a repository not owned by the
//     user (safe.directory), an implicitly found bare repository
//     (safe.bareRepository), a place that is gone, GIT_OBJECT_DIRECTORY
//     set;
//   - a prefix or name outside refs/heads/ and refs/orc/ (other refs may
//     be per worktree), or not a plain ref name (a for-each-ref pattern);
//   - a ref git may read otherwise: a symbolic ref, a symlink, content
//     that is not exactly one lower-case object id and a newline (empty,
//     garbage, another format's id), a name git would skip as invalid (a
//     stale x.lock), a packed-refs line of any other shape, a file or
//     directory that cannot be read;
//   - a ref whose object is neither a loose object here nor listed by the
//     index of a pack here (whose pack file is there): git leaves out or
//     fails on a ref to a missing object, and those are git's own tests
//     that an object exists (objfiles.go reads the indexes; an id of the
//     other object format is never found, objects being named by their
//     full id). An alternate's object, or a partial clone's missing one,
//     is git's to judge.
//
// The loose refs are read before packed-refs, as git reads them, so that
// a concurrent git pack-refs, which writes packed-refs before it deletes
// the loose files, is never missed.

// refFilePrefixes hold the refs orc-state lists that live in the common
// dir: the branches and orc-state's own refs.
var refFilePrefixes = []string{"refs/heads/", "refs/orc/"}

// refsFromFiles is `git for-each-ref --format='%(objectname) %(refname)'
// <prefix>` (prefix ending in "/") read from the ref files: each ref under
// prefix by full name with its id. ok is false when the files cannot give
// git's exact answer (see above): ask git.
func (l Layout) refsFromFiles(prefix string) (refs map[string]string, ok bool) {
	if !strings.HasSuffix(prefix, "/") || !refFileName(prefix+"x") || !l.refFilesReadable() {
		return nil, false
	}
	refs = map[string]string{}
	root := filepath.Join(l.CommonDir, filepath.FromSlash(prefix))
	fi, err := os.Lstat(root)
	switch {
	case err == nil && fi.IsDir():
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(l.CommonDir, path)
			if err != nil {
				return err
			}
			name := filepath.ToSlash(rel)
			id, ok := readLooseRef(path, d.Type())
			if !ok || !refFileName(name) {
				return errDoubt
			}
			refs[name] = id
			return nil
		})
		if err != nil {
			return nil, false
		}
	case err == nil, unlessAbsent(err) != nil:
		return nil, false // a file where the folder would be, or no look
	}
	packed, ok := l.packedRefs(func(name string) bool { return strings.HasPrefix(name, prefix) })
	if !ok {
		return nil, false
	}
	for name, id := range packed {
		if _, loose := refs[name]; !loose {
			refs[name] = id
		}
	}
	objs := l.objectFiles()
	defer objs.close()
	for _, id := range refs {
		if !objs.has(id) {
			return nil, false
		}
	}
	return refs, true
}

// refFromFiles is `git show-ref --verify <name>` read from the ref files:
// the id name points at, or exists false for no such ref. ok is false when
// the files cannot give git's exact answer (see above): ask git.
func (l Layout) refFromFiles(name string) (id string, exists, ok bool) {
	if !refFileName(name) || !l.refFilesReadable() {
		return "", false, false
	}
	path := filepath.Join(l.CommonDir, filepath.FromSlash(name))
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		if id, ok = readLooseRef(path, fi.Mode().Type()); !ok {
			return "", false, false
		}
	case (err == nil && fi.IsDir()) || (err != nil && unlessAbsent(err) == nil):
		// no loose ref (a folder of longer names is none): packed-refs says
		packed, ok := l.packedRefs(func(n string) bool { return n == name })
		if !ok {
			return "", false, false
		}
		if id, exists = packed[name]; !exists {
			return "", false, true
		}
	default:
		return "", false, false
	}
	objs := l.objectFiles()
	defer objs.close()
	if !objs.has(id) {
		return "", false, false
	}
	return id, true, true
}

// errDoubt stops a walk of the loose refs: git must answer.
var errDoubt = errors.New("the ref files cannot answer")

// refFileName reports whether name is a ref under refFilePrefixes that
// git would read from a file of that name: a valid ref name (go-git's
// check is as strict as git's, or stricter), and plain ASCII on macOS,
// where git may turn a file name's Unicode into another form.
func refFileName(name string) bool {
	under := false
	for _, p := range refFilePrefixes {
		under = under || strings.HasPrefix(name, p)
	}
	if !under || plumbing.ReferenceName(name).Validate() != nil {
		return false
	}
	if runtime.GOOS == "darwin" {
		for i := 0; i < len(name); i++ {
			if name[i] >= 0x80 {
				return false
			}
		}
	}
	return true
}

// refFilesReadable reports whether git, asked here, would read the refs
// from the files this package reads, and answer (see above).
func (l Layout) refFilesReadable() bool {
	if !l.RefFiles || !l.plainFormat || l.CommonDir == "" || Program(l.Env.Get("PATH")) == "" {
		return false
	}
	if l.WorktreeRoot == "" && !l.FromEnv {
		return false
	}
	if l.Env.Get("GIT_OBJECT_DIRECTORY") != "" || l.Env.Get("GIT_TEST_ASSUME_DIFFERENT_OWNER") != "" {
		return false
	}
	if _, err := os.Stat(l.Place); err != nil {
		return false
	}
	// git's safe.directory check: a work tree, its .git and a git dir
	// that the user owns pass it whatever the config says.
	owned := func(path string, absentOK bool) bool {
		fi, err := os.Lstat(path)
		if err != nil {
			return absentOK && unlessAbsent(err) == nil
		}
		return ownedByMe(fi)
	}
	if l.WorktreeRoot != "" && (!owned(l.WorktreeRoot, false) || !owned(filepath.Join(l.WorktreeRoot, ".git"), true)) {
		return false
	}
	return owned(l.GitDir, false)
}

// readLooseRef reads a loose ref file (typ its type): ok only for a
// regular file that holds one lower-case object id and a newline, as git
// writes it.
func readLooseRef(path string, typ fs.FileMode) (id string, ok bool) {
	if !typ.IsRegular() {
		return "", false
	}
	b, err := readSmall(path, 128)
	if err != nil {
		return "", false
	}
	id, ok = strings.CutSuffix(string(b), "\n")
	return id, ok && isLowerObjectID(id)
}

// packedRefs reads packed-refs: the refs whose names keep accepts, with
// their ids. ok is false when the file cannot be read, or holds a line
// other than git's header, "<id> <name>" with a valid name, and "^<id>"
// (a tag's peeled id) after a ref, or a kept name that is not valid, or
// a name twice.
func (l Layout) packedRefs(keep func(name string) bool) (refs map[string]string, ok bool) {
	refs = map[string]string{}
	data, err := atomicfile.ReadFile(filepath.Join(l.CommonDir, "packed-refs"))
	if err != nil {
		return refs, unlessAbsent(err) == nil
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, false
	}
	lines := bytes.Split(data, []byte("\n"))
	lines = lines[:len(lines)-1]
	if len(lines) > 0 && bytes.HasPrefix(lines[0], []byte("# pack-refs with:")) {
		lines = lines[1:]
	}
	seen := map[string]bool{}
	afterRef := false
	for _, line := range lines {
		if peeled, isPeeled := bytes.CutPrefix(line, []byte("^")); isPeeled {
			if !afterRef || !isLowerObjectID(string(peeled)) {
				return nil, false
			}
			afterRef = false
			continue
		}
		id, name, found := strings.Cut(string(line), " ")
		if !found || !isLowerObjectID(id) || seen[name] {
			return nil, false
		}
		seen[name], afterRef = true, true
		if keep(name) {
			if plumbing.ReferenceName(name).Validate() != nil {
				return nil, false
			}
			refs[name] = id
		}
	}
	return refs, true
}

// objectFiles is a reader of the repository's object files, for the
// existence of objects (the caller closes it).
func (l Layout) objectFiles() *objectFiles {
	return &objectFiles{dir: filepath.Join(l.CommonDir, "objects")}
}

// isLowerObjectID reports whether s is a full object id in lower-case hex,
// as git writes ids.
func isLowerObjectID(s string) bool {
	return isObjectID(s) && strings.ToLower(s) == s
}

// headGuess is the commit the files of the current work tree's HEAD name:
// a detached HEAD's id, else its branch's (Layout.BranchSHA: the loose
// ref, else packed-refs). A guess, to read ahead: what HEAD is stays git
// status's to say.
func (l Layout) headGuess() (string, bool) {
	b, err := readSmall(filepath.Join(l.GitDir, "HEAD"), 256)
	if err != nil {
		return "", false
	}
	if s := strings.TrimSpace(string(b)); isObjectID(s) {
		return strings.ToLower(s), true
	}
	branch, detached, err := parseHEAD(b)
	if err != nil || detached {
		return "", false
	}
	return l.BranchSHA(branch)
}
