package gitx

import (
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
// A Repo may keep one `git cat-file --batch` process; Close stops it.
type Repo struct {
	layout Layout

	mu   sync.Mutex
	objs *catFile // opened on first use
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
	return nil
}

// objects returns the object reader, opening it on first use.
func (r *Repo) objects() (*catFile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs != nil {
		return r.objs, nil
	}
	r.objs = newCatFile(r.layout.here(), readShallow(r.layout.CommonDir))
	return r.objs, nil
}
