package gitx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// Repo is an opened repository: a go-git repository plus the Layout found by
// Discover. It is safe for concurrent reads only as far as go-git is.
type Repo struct {
	repo    *git.Repository
	layout  Layout
	lenient bool // opened through the lenient-extensions fallback
}

// Open opens the repository containing dir with go-git (DetectDotGit +
// EnableDotGitCommonDir), so subdirectories, linked worktrees and submodules
// work. Opening is cheap: no status, no pack scan.
//
// go-git v5.19 refuses every [extensions] key except noop. When it refuses
// (ErrUnknownExtension or ErrUnsupportedExtensionRepositoryFormatVersion),
// Open rebuilds the storage by hand from the discovered git dir and common
// dir and hides the [extensions] section from go-git, but only when every key
// in it is benign for reading (worktreeConfig, preciousObjects, noop).
// Format-changing extensions (objectFormat, refStorage, ...) stay fatal.
func Open(dir string) (*Repo, error) {
	l, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	r, err := git.PlainOpenWithOptions(l.WorktreeRoot, &git.PlainOpenOptions{
		DetectDotGit:          true,
		EnableDotGitCommonDir: true,
	})
	if err == nil {
		return &Repo{repo: r, layout: l}, nil
	}
	if !errors.Is(err, git.ErrUnknownExtension) &&
		!errors.Is(err, git.ErrUnsupportedExtensionRepositoryFormatVersion) {
		return nil, fmt.Errorf("open repository %s: %w", l.WorktreeRoot, err)
	}
	r, err = openLenient(l)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", l.WorktreeRoot, err)
	}
	return &Repo{repo: r, layout: l, lenient: true}, nil
}

// Layout returns the layout the repository was opened with.
func (r *Repo) Layout() Layout { return r.layout }

func openLenient(l Layout) (*git.Repository, error) {
	var fsys billy.Filesystem = osfs.New(l.GitDir)
	if l.CommonDir != l.GitDir {
		fsys = dotgit.NewRepositoryFilesystem(fsys, osfs.New(l.CommonDir))
	}
	st := &lenientStorage{Storage: filesystem.NewStorage(fsys, cache.NewObjectLRUDefault())}
	return git.Open(st, osfs.New(l.WorktreeRoot))
}

// benignExtensions are the extensions.* keys (lower-cased) that do not change
// how objects, refs or the index are stored, so a reader may ignore them.
var benignExtensions = map[string]bool{
	"worktreeconfig":  true, // per-worktree config.worktree files
	"preciousobjects": true, // forbids pruning; reads are unaffected
	"noop":            true,
	"noop-v1":         true,
}

// errReadOnlyConfig protects the on-disk config: the config we hand to go-git
// has its [extensions] section removed and must never be written back.
var errReadOnlyConfig = errors.New("gitx: repository opened read-only (lenient extensions); refusing to write config")

// lenientStorage is a filesystem storage whose Config drops an [extensions]
// section made only of benign keys. Any other key leaves the config
// untouched, so go-git's own check still refuses the repository.
type lenientStorage struct {
	*filesystem.Storage
}

// Config implements config.ConfigStorer.
func (s *lenientStorage) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil || cfg == nil || cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return cfg, err
	}
	if onlyBenignExtensions(cfg) {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}

// SetConfig implements config.ConfigStorer; it always fails (see errReadOnlyConfig).
func (s *lenientStorage) SetConfig(*config.Config) error { return errReadOnlyConfig }

func onlyBenignExtensions(cfg *config.Config) bool {
	sec := cfg.Raw.Section("extensions")
	if len(sec.Subsections) > 0 {
		return false
	}
	for _, opt := range sec.Options {
		if !benignExtensions[strings.ToLower(opt.Key)] {
			return false
		}
	}
	return true
}
