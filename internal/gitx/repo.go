package gitx

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is an opened repository: a go-git filesystem storage (objects, refs,
// index) plus the Layout found by Discover. It is safe for concurrent reads
// only as far as go-git's storage is.
//
// Repo deliberately holds a storage and not a go-git *Repository: the root
// go-git package links every transport (ssh, http, openpgp, ...) and their
// package initialisation costs several milliseconds per process.
type Repo struct {
	st     *filesystem.Storage
	layout Layout
}

// Errors of Open for repositories whose format go-git cannot read.
var (
	// errUnknownExtension is returned (wrapped, with the extension's name)
	// for an [extensions] key that changes the repository format.
	errUnknownExtension = errors.New("unknown extension")
	// errFormatVersion is returned for core.repositoryformatversion > 1.
	errFormatVersion = errors.New("unsupported core.repositoryformatversion")
)

// errNoRepository mirrors go-git's ErrRepositoryNotExists: the git dir has
// no HEAD.
var errNoRepository = errors.New("repository does not exist")

// Open opens the repository containing dir: Discover finds the worktree,
// its git dir and common dir (so subdirectories, linked worktrees and
// submodules work), and a go-git filesystem storage is built over them.
// Opening is cheap: it reads HEAD and the config, no status, no pack scan.
//
// Open refuses repositories it could misread: core.repositoryformatversion
// above 1, and any [extensions] key other than the benign ones
// (worktreeConfig, preciousObjects, noop, noop-v1), for example
// objectFormat=sha256 or refStorage=reftable; the error names the
// extension. Nothing in this package writes the repository config.
func Open(dir string) (*Repo, error) {
	l, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	var fsys billy.Filesystem = osfs.New(l.GitDir)
	if l.CommonDir != l.GitDir {
		fsys = dotgit.NewRepositoryFilesystem(fsys, osfs.New(l.CommonDir))
	}
	st := filesystem.NewStorage(fsys, cache.NewObjectLRUDefault())
	if _, err := st.Reference(plumbing.HEAD); err != nil {
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			err = errNoRepository
		}
		return nil, fmt.Errorf("open repository %s: %w", l.WorktreeRoot, err)
	}
	cfg, err := st.Config()
	if err != nil {
		return nil, fmt.Errorf("open repository %s: read config: %w", l.WorktreeRoot, err)
	}
	if err := checkFormat(cfg); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", l.WorktreeRoot, err)
	}
	return &Repo{st: st, layout: l}, nil
}

// Layout returns the layout the repository was opened with.
func (r *Repo) Layout() Layout { return r.layout }

// benignExtensions are the extensions.* keys (lower-cased) that do not change
// how objects, refs or the index are stored, so a reader may ignore them.
var benignExtensions = map[string]bool{
	"worktreeconfig":  true, // per-worktree config.worktree files
	"preciousobjects": true, // forbids pruning; reads are unaffected
	"noop":            true,
	"noop-v1":         true,
}

// checkFormat refuses a repository format go-git cannot read: a format
// version above 1 or a format-changing extension. git itself ignores
// extensions in a version-0 repository only for a few historical keys, all
// of which are benign here or refused alike, so the version does not
// matter for the extension check.
func checkFormat(cfg *config.Config) error {
	if cfg.Raw == nil {
		return nil
	}
	// The typed cfg.Core.RepositoryFormatVersion keeps only "1": read the
	// raw value.
	if v := strings.TrimSpace(cfg.Raw.Section("core").Options.Get("repositoryformatversion")); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 0 || n > 1 {
			return fmt.Errorf("%w: %q", errFormatVersion, v)
		}
	}
	if !cfg.Raw.HasSection("extensions") {
		return nil
	}
	sec := cfg.Raw.Section("extensions")
	var bad []string
	for _, opt := range sec.Options {
		if k := strings.ToLower(opt.Key); !benignExtensions[k] {
			bad = append(bad, k)
		}
	}
	for _, sub := range sec.Subsections {
		bad = append(bad, strings.ToLower(sub.Name))
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("%w: %s", errUnknownExtension, strings.Join(dedup(bad), ", "))
}

func dedup(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// commit reads the commit object h.
func (r *Repo) commit(h plumbing.Hash) (*object.Commit, error) {
	return object.GetCommit(r.st, h)
}
