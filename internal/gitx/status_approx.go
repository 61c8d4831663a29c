package gitx

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/utils/merkletrie"
	fsnoder "github.com/go-git/go-git/v5/utils/merkletrie/filesystem"
	idxnoder "github.com/go-git/go-git/v5/utils/merkletrie/index"
	"github.com/go-git/go-git/v5/utils/merkletrie/noder"
	"github.com/orc-state/orc-state/internal/hexid"
)

// approxStatus is Status without a git binary. It rebuilds what go-git's
// Worktree.Status computes, from lower-level go-git packages (the root
// package and its transports stay unlinked):
//
//   - staged: the HEAD tree against the index (an unborn HEAD has no tree,
//     so every index entry is added);
//   - unstaged and untracked: the index against the working tree, whose
//     files are hashed unless their stat data matches the index entry and
//     the entry is not racy;
//   - untracked paths are dropped when ignored by <CommonDir>/info/exclude
//     or a .gitignore (a path under an ignored directory stays ignored, as
//     in git); global excludes and core.excludesFile are not read.
//
// Codes follow porcelain v2: "A.", "M.", "D.", "T." from the first diff,
// ".M", ".D", ".T" from the second, "??" for untracked, unmerged paths
// ("UU", "AA", "DU", ...) from the index stages, ".A" for intent-to-add.
// A path deleted from the index but present on disk gets "D." and "??", as
// with git. Renames show as a delete plus an add; submodules compare only
// their checked-out HEAD; autocrlf and fileMode=false are not honoured.
// When ctx ends during the walk it returns Status{TimedOut: true}.
func (r *Repo) approxStatus(ctx context.Context) (Status, error) {
	st, err := r.approxEntries(ctx)
	if errors.Is(err, merkletrie.ErrCanceled) || ctx.Err() != nil {
		return Status{TimedOut: true}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("approximate status (no git binary): %w", err)
	}
	return Status{Entries: st, Approximate: true}, nil
}

func (r *Repo) approxEntries(ctx context.Context) ([]StatusEntry, error) {
	idx, err := r.st.Index()
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}

	// Unmerged paths have stages 1..3 instead of one stage-0 entry; they
	// are reported from the stages alone and kept out of both diffs.
	unmerged := map[string]uint8{}
	merged := &index.Index{Version: idx.Version, ModTime: idx.ModTime}
	intentToAdd := map[string]bool{}
	for _, e := range idx.Entries {
		// go-git's index.Merged constant is 1, but the decoder stores
		// the raw stage: 0 for a merged entry.
		if s := int(e.Stage); s >= 1 && s <= 3 {
			unmerged[e.Name] |= 1 << (s - 1)
			continue
		}
		if e.IntentToAdd {
			intentToAdd[e.Name] = true
		}
		merged.Entries = append(merged.Entries, e)
	}

	var head noder.Noder // nil on an unborn branch
	ref, err := storer.ResolveReference(r.st, plumbing.HEAD)
	switch {
	case err == nil:
		c, err := r.commit(ref.Hash())
		if err != nil {
			return nil, fmt.Errorf("read HEAD commit: %w", err)
		}
		tree, err := c.Tree()
		if err != nil {
			return nil, fmt.Errorf("read HEAD tree: %w", err)
		}
		head = object.NewTreeRootNode(tree)
	case errors.Is(err, plumbing.ErrReferenceNotFound):
	default:
		return nil, fmt.Errorf("read HEAD: %w", err)
	}

	codes := map[string]*[2]byte{}
	code := func(p string) *[2]byte {
		c := codes[p]
		if c == nil {
			c = &[2]byte{'.', '.'}
			codes[p] = c
		}
		return c
	}
	var untracked []string

	staged, err := merkletrie.DiffTreeContext(ctx, head, idxnoder.NewRootNode(merged), sameNode)
	if err != nil {
		return nil, err
	}
	for _, ch := range staged {
		p, letter, err := changeLetter(ch)
		if err != nil {
			return nil, err
		}
		if unmerged[p] == 0 && !inDotGit(p) {
			code(p)[0] = letter
		}
	}

	root := osfs.New(r.layout.WorktreeRoot)
	worktree := fsnoder.NewRootNodeWithOptions(root, r.submoduleHeads(merged), fsnoder.Options{Index: merged})
	unstaged, err := merkletrie.DiffTreeContext(ctx, idxnoder.NewRootNode(merged), worktree, sameNode)
	if err != nil {
		return nil, err
	}
	var ign *ignorer
	for _, ch := range unstaged {
		p, letter, err := changeLetter(ch)
		if err != nil {
			return nil, err
		}
		if unmerged[p] != 0 || inDotGit(p) {
			continue
		}
		if letter != 'A' {
			code(p)[1] = letter
			continue
		}
		if ign == nil {
			ign = r.newIgnorer(root)
		}
		if !ign.ignored(p) {
			untracked = append(untracked, p)
		}
	}

	for p := range intentToAdd {
		c := code(p)
		c[0] = '.'
		if c[1] != 'D' {
			c[1] = 'A'
		}
	}

	var out []StatusEntry
	for p, c := range codes {
		if c[0] != '.' || c[1] != '.' {
			out = append(out, StatusEntry{Path: p, Code: string(c[:])})
		}
	}
	for p, stages := range unmerged {
		out = append(out, StatusEntry{Path: p, Code: unmergedCode(stages)})
	}
	for _, p := range untracked {
		out = append(out, StatusEntry{Path: p, Code: "??"})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[j].Code == "??" && out[i].Code != "??" // tracked entry first, as git
	})
	return out, nil
}

// changeLetter returns the path of a merkletrie change and its porcelain
// letter: 'A' insert, 'D' delete, 'M' modify, 'T' type change.
func changeLetter(ch merkletrie.Change) (string, byte, error) {
	a, err := ch.Action()
	if err != nil {
		return "", 0, err
	}
	switch a {
	case merkletrie.Insert:
		return ch.To.String(), 'A', nil
	case merkletrie.Delete:
		return ch.From.String(), 'D', nil
	default:
		if modeKind(ch.From.Hash()) != modeKind(ch.To.Hash()) {
			return ch.To.String(), 'T', nil
		}
		return ch.To.String(), 'M', nil
	}
}

// modeKind classifies the file mode that go-git's noders append to a hash
// (20-byte id + 4-byte little-endian mode): a change between kinds (file,
// symlink, submodule) is a type change.
func modeKind(h []byte) byte {
	if len(h) != 24 {
		return 'f'
	}
	switch filemode.FileMode(binary.LittleEndian.Uint32(h[20:])) {
	case filemode.Symlink:
		return 'l'
	case filemode.Submodule:
		return 'g'
	default:
		return 'f' // regular and executable files
	}
}

// dirHash is the hash go-git's index and filesystem noders give directories.
var dirHash = make([]byte, 24)

// sameNode is the merkletrie equality: ids and modes equal, and never for a
// directory without a real hash, so that the diff descends into it.
func sameNode(a, b noder.Hasher) bool {
	ha, hb := a.Hash(), b.Hash()
	if bytes.Equal(ha, dirHash) || bytes.Equal(hb, dirHash) {
		return false
	}
	return bytes.Equal(ha, hb)
}

// inDotGit reports whether a path lies in (or is) a .git entry at any
// depth: the filesystem noder already skips those, this is a safety net.
func inDotGit(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// unmergedCode maps the set of stages present for a path (bit 0: base,
// bit 1: ours, bit 2: theirs) to git's unmerged XY.
func unmergedCode(stages uint8) string {
	switch stages {
	case 0b001:
		return "DD"
	case 0b010:
		return "AU"
	case 0b011:
		return "UD"
	case 0b100:
		return "UA"
	case 0b101:
		return "DU"
	case 0b110:
		return "AA"
	default:
		return "UU"
	}
}

// submoduleHeads maps every gitlink of the index to the submodule's
// checked-out HEAD, or to the recorded id when the submodule is not
// checked out (or unreadable), which then compares as unchanged.
func (r *Repo) submoduleHeads(idx *index.Index) map[string]plumbing.Hash {
	subs := map[string]plumbing.Hash{}
	for _, e := range idx.Entries {
		if e.Mode != filemode.Submodule {
			continue
		}
		h := e.Hash
		if cur, ok := checkedOutHead(filepath.Join(r.layout.WorktreeRoot, filepath.FromSlash(e.Name))); ok {
			h = cur
		}
		subs[e.Name] = h
	}
	return subs
}

// checkedOutHead reads the HEAD commit of the repository whose worktree is
// exactly dir (no walking up), by hand.
func checkedOutHead(dir string) (plumbing.Hash, bool) {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	gitDir := dotGit
	if !fi.IsDir() {
		if gitDir, err = readGitFile(dotGit); err != nil {
			return plumbing.ZeroHash, false
		}
	}
	l, err := layoutFor(dir, gitDir)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	b, err := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	if err != nil {
		return plumbing.ZeroHash, false
	}
	if s := strings.TrimSpace(string(b)); hexid.Valid(s, 40, 40) {
		return plumbing.NewHash(s), true
	}
	branch, detached, err := parseHEAD(b)
	if err != nil || detached {
		return plumbing.ZeroHash, false
	}
	sha, ok := l.BranchSHA(branch)
	if !ok {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(sha), true
}

// ignorer decides whether an untracked path is ignored.
type ignorer struct {
	m    gitignore.Matcher
	dirs map[string]bool // cache: is this directory ignored (itself or above)
}

// newIgnorer loads <CommonDir>/info/exclude (lowest priority) and then every
// .gitignore of the worktree (go-git's ReadPatterns, which also reads the
// main worktree's .git/info/exclude again: a harmless duplicate).
func (r *Repo) newIgnorer(root billy.Filesystem) *ignorer {
	ps := readExcludeFile(filepath.Join(r.layout.CommonDir, "info", "exclude"))
	more, _ := gitignore.ReadPatterns(root, nil) // an unreadable dir: keep what was read
	ps = append(ps, more...)
	return &ignorer{m: gitignore.NewMatcher(ps), dirs: map[string]bool{}}
}

// ignored reports whether path p (slash-separated) is ignored. As in git, a
// file cannot be re-included when one of its parent directories is ignored.
func (ig *ignorer) ignored(p string) bool {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		v, ok := ig.dirs[dir]
		if !ok {
			v = ig.m.Match(parts[:i], true)
			ig.dirs[dir] = v
		}
		if v {
			return true
		}
	}
	return ig.m.Match(parts, false)
}

// readExcludeFile parses a gitignore-style file; a missing file gives none.
func readExcludeFile(path string) []gitignore.Pattern {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	return ps
}
