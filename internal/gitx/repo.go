package gitx

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/orc-state/orc-state/internal/environ"
)

// Repo is an opened repository: the Layout git would use from a place, and
// the reader that answers questions about it.
//
// Every answer comes from git itself, run in the same place and
// environment (git is the oracle: SHA-256, reftable, partial and shallow
// clones and any extension git knows are read as git reads them), or
// from the ref files where they give git's exact answer (reffiles.go). Without
// a git program on PATH every question fails with "no git program on
// PATH", which callers show as unknown; nothing is computed in its place.
//
// Commits are read from the object files where that gives exactly what
// git gives (objfiles.go), through git otherwise.
//
// A Repo may keep one `git cat-file --batch` process, and the object
// files it read open; Close stops and closes them.
type Repo struct {
	layout Layout

	mu      sync.Mutex
	objs    *catFile     // opened on first use
	checked bool         // files and shallow are set
	files   *objectFiles // nil: the object files are not read by hand
	shallow map[string]bool
}

// Open finds the repository git would use from dir with the environment
// env (see Discover) and opens it. Opening is cheap: no process is started
// until a question needs git.
func Open(dir string, env environ.List) (*Repo, error) {
	l, err := Discover(dir, env)
	if err != nil {
		return nil, err
	}
	return OpenLayout(l)
}

// OpenLayout opens a repository already discovered.
func OpenLayout(l Layout) (*Repo, error) { return &Repo{layout: l}, nil }

// Layout returns the layout the repository was opened with.
func (r *Repo) Layout() Layout { return r.layout }

// Close stops the repository's git process, if any.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs != nil {
		r.objs.close()
		r.objs = nil
	}
	if r.files != nil {
		r.files.close()
	}
	return nil
}

// objects returns the object reader, opening it on first use.
func (r *Repo) objects() (*catFile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs != nil {
		return r.objs, nil
	}
	r.check()
	r.objs = newCatFile(r.layout.here(), r.shallow)
	return r.objs, nil
}

// check reads, once, the shallow file and whether the object files may
// be read by hand (r.mu held).
func (r *Repo) check() {
	if r.checked {
		return
	}
	r.checked = true
	r.shallow = readShallow(r.layout.CommonDir)
	if r.layout.objectFilesReadable() {
		r.files = &objectFiles{dir: filepath.Join(r.layout.CommonDir, "objects")}
	}
}

// objectFiles is the reader of the object files, nil when git must be
// asked for every object.
func (r *Repo) objectFiles() *objectFiles {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.check()
	return r.files
}

// commit reads the commit with the full id: from the object files when
// they hold it (objfiles.go), else through git (errMissing when git has
// no such object).
func (r *Repo) commit(id string) (commitInfo, error) {
	if files := r.objectFiles(); files != nil {
		if kind, data, err := files.read(strings.ToLower(id)); err == nil {
			if kind != "commit" {
				return commitInfo{}, fmt.Errorf("%s is a %s: %w", id, kind, errNotCommit)
			}
			return parseCommit(strings.ToLower(id), data, r.shallow)
		}
	}
	objs, err := r.objects()
	if err != nil {
		return commitInfo{}, err
	}
	return objs.commit(id)
}
