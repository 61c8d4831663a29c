package gitx

import (
	"fmt"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is an opened repository: the Layout git would use from a place, and
// the reader that answers questions about it.
//
// With a git program on PATH every answer comes from git itself, run in
// the same place and environment (git is the oracle: SHA-256, reftable,
// partial and shallow clones and any extension git knows are read as git
// reads them). Without one, a built-in reader (go-git's storage) answers
// for the repository formats it knows, marks the dirty list approximate,
// and refuses the others with an explicit reason.
//
// A Repo may keep one `git cat-file --batch` process; Close stops it.
type Repo struct {
	layout  Layout
	builtin bool // no git program: the built-in reader answers

	mu   sync.Mutex
	objs objectReader // opened on first use
	st   *filesystem.Storage
}

// Open finds the repository git would use from dir and the process
// environment (see Discover) and opens it. Opening is cheap: no process is
// started until a question needs git.
func Open(dir string) (*Repo, error) {
	l, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	return OpenLayout(l)
}

// OpenLayout opens a repository already discovered. Without a git program
// a repository the built-in reader cannot read is refused, naming why.
func OpenLayout(l Layout) (*Repo, error) {
	r := &Repo{layout: l, builtin: Program() == ""}
	if r.builtin && l.Format != "" {
		return nil, fmt.Errorf("open repository %s: no git program, and the built-in reader cannot read it (%s)", l.Place, l.Format)
	}
	return r, nil
}

// Layout returns the layout the repository was opened with.
func (r *Repo) Layout() Layout { return r.layout }

// Builtin reports whether the built-in reader answers (no git program).
func (r *Repo) Builtin() bool { return r.builtin }

// Close stops the repository's git process, if any.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs != nil {
		r.objs.close()
		r.objs = nil
	}
	return nil
}

// objects returns the object reader, opening it on first use.
func (r *Repo) objects() (objectReader, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs != nil {
		return r.objs, nil
	}
	if r.builtin {
		st, err := r.storageLocked()
		if err != nil {
			return nil, err
		}
		r.objs = &builtinObjects{st: st, shallow: readShallow(r.layout.CommonDir)}
	} else {
		r.objs = newCatFile(r.layout.here(), readShallow(r.layout.CommonDir))
	}
	return r.objs, nil
}

// storage returns go-git's storage over the git dir and common dir: the
// built-in reader, and the object writer of sync's snapshots.
func (r *Repo) storage() (*filesystem.Storage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.storageLocked()
}

func (r *Repo) storageLocked() (*filesystem.Storage, error) {
	if r.st != nil {
		return r.st, nil
	}
	if r.layout.Format != "" {
		return nil, fmt.Errorf("the built-in reader cannot read %s (%s)", r.layout.CommonDir, r.layout.Format)
	}
	var fsys billy.Filesystem = osfs.New(r.layout.GitDir)
	if r.layout.CommonDir != r.layout.GitDir {
		fsys = dotgit.NewRepositoryFilesystem(fsys, osfs.New(r.layout.CommonDir))
	}
	r.st = filesystem.NewStorage(fsys, cache.NewObjectLRUDefault())
	return r.st, nil
}

// commit reads a commit object through the built-in reader.
func (r *Repo) commit(h plumbing.Hash) (*object.Commit, error) {
	st, err := r.storage()
	if err != nil {
		return nil, err
	}
	return object.GetCommit(st, h)
}
