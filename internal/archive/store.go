package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/suggest"
)

// Timeout bounds each git command of an archive.
const Timeout = 2 * time.Minute

// maxNameTries bounds the names Prepare tries for one archive made in a
// second that other writers' archives also took: more than the writers
// that could contend for one second's names.
const maxNameTries = 128

// Store is where one state dir's archives are kept: the repository's refs,
// or the state dir's .archive folder.
type Store struct {
	Dir    *state.Dir
	git    *gitx.Layout    // nil: the folder
	staged map[string]bool // folder archives the transaction stages
}

// Open returns the store of a state dir: the repository when the state dir
// is the repository's own (<main work tree>/.orc, or a bare repository's)
// and a git program is there to write objects; else the folder.
func Open(d *state.Dir) *Store {
	s := &Store{Dir: d}
	if d.Git == nil || gitx.Program(d.Git.Env.Get("PATH")) == "" {
		return s
	}
	parent, err := d.Git.StateParent()
	if err != nil {
		return s
	}
	if sameDir(filepath.Join(parent, ".orc"), d.Path) {
		s.git = d.Git
	}
	return s
}

// sameDir reports whether two paths name one directory (by identity when
// both exist, so a symlinked spelling of the same folder counts).
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// InGit reports whether archives are kept as git refs.
func (s *Store) InGit() bool { return s.git != nil }

// Where names the place archives are kept, for messages.
func (s *Store) Where() string {
	if s.git != nil {
		return RefPrefix
	}
	return filepath.Join(s.Dir.Path, Folder) + string(filepath.Separator)
}

func ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), Timeout)
}

// Prepare keeps items before the transaction that removes what they hold.
// In a repository it writes their commits and creates their refs, each
// new, with one git fast-import (a name taken meanwhile by an archive of
// the same second is created again under the next free name, with git
// update-ref), so it runs before the lock; in the folder it does nothing
// (Stage writes them in the transaction). An error leaves no archive
// behind.
func (s *Store) Prepare(items []*Item) error {
	var inGit []*Item
	for _, it := range items {
		if !it.InFolder {
			inGit = append(inGit, it)
		}
	}
	items = inGit
	if s.git == nil || len(items) == 0 {
		return nil
	}
	c, cancel := ctx()
	defer cancel()
	now := s.Dir.Time()
	commits := make([]gitx.NewCommit, len(items))
	for i, it := range items {
		it.Name = RefPrefix + baseName(it.Meta.Session, now, 1)
		who := gitx.Identity{Name: "orc-state", Email: "orc-state@localhost", When: atTime(it.Meta)}
		commits[i] = gitx.NewCommit{Files: it.Snap, Message: message(it.Meta), Who: who, Ref: it.Name}
	}
	if err := atomicfile.Seam(atomicfile.OpGit, s.refPath(items[0].Name)); err != nil { // git fast-import
		return err
	}
	ids, err := s.git.CommitSnapshots(c, commits)
	if ids == nil {
		return fmt.Errorf("cannot write the archive's objects: %w", err)
	}
	for i, it := range items {
		it.Commit, it.refCreated = ids[i], err == nil
	}
	if err == nil {
		return nil
	}
	// Some names were taken: keep the refs that were created, and create
	// the others under free names.
	taken, lerr := s.takenNames(c)
	if lerr != nil {
		return fmt.Errorf("cannot list %s: %w", RefPrefix, lerr)
	}
	var rest []*Item
	for _, it := range items {
		if taken[strings.ToLower(it.Name)] == it.Commit {
			it.refCreated = true
		} else {
			rest = append(rest, it)
		}
	}
	if len(rest) == 0 {
		return nil // each name already held its commit: the same content, archived in the same second
	}
	// Each try moves every name still to create past the one it tried (a
	// writer creating that name right now holds its lock without listing
	// it yet) and past every name listed: create-if-absent, so two writers
	// never share a name, and each try makes progress.
	next := make(map[*Item]int, len(rest))
	for _, it := range rest {
		next[it] = 2
	}
	for try := 0; ; try++ {
		var updates []gitx.RefUpdate
		for _, it := range rest {
			n := next[it]
			for taken[strings.ToLower(RefPrefix+baseName(it.Meta.Session, now, n))] != "" {
				n++
			}
			it.Name = RefPrefix + baseName(it.Meta.Session, now, n)
			next[it] = n + 1
			taken[strings.ToLower(it.Name)] = it.Commit
			updates = append(updates, gitx.RefUpdate{Name: it.Name, New: it.Commit, Check: true})
		}
		if err = atomicfile.Seam(atomicfile.OpGit, s.refPath(rest[0].Name)); err == nil { // git update-ref
			err = s.git.UpdateRefs(c, updates)
		}
		if err == nil {
			for _, it := range rest {
				it.refCreated = true
			}
			return nil
		}
		if try == maxNameTries-1 {
			s.Abandon(items)
			return fmt.Errorf("cannot create %s: %w", rest[0].Name, err)
		}
		if taken, lerr = s.takenNames(c); lerr != nil {
			s.Abandon(items)
			return fmt.Errorf("cannot list %s: %w", RefPrefix, lerr)
		}
	}
}

// refPath is where the files backend keeps ref name: the path the fault
// hook sees for a git command creating it (atomicfile.Seam).
func (s *Store) refPath(name string) string {
	return filepath.Join(s.git.CommonDir, filepath.FromSlash(name))
}

// takenNames lists the archive refs by their names in lower case: on a
// file system that ignores case (Windows, macOS; some store the name
// lowered) a loose ref collides with every spelling of its name.
func (s *Store) takenNames(c context.Context) (map[string]string, error) {
	refs, err := s.git.ListRefs(c, RefPrefix)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(refs))
	for name, id := range refs {
		out[strings.ToLower(name)] = id
	}
	return out, nil
}

// Begin starts a transaction's use of the store: the folder names it
// stages are its own (the transaction's function may run twice).
func (s *Store) Begin() { s.staged = map[string]bool{} }

// Keep, under the lock, makes sure that current, what the transaction
// removes or replaces for it, is archived, and returns the archive's name.
// In a repository, when current is what Prepare archived, that is the ref
// (the item is then Used). Otherwise (no git, or another writer changed
// the content since Prepare read it) current is staged in tx as a folder
// archive, .archive/<id>/<time>/ and its .json: kept in the same
// transaction, without git under the lock.
func (s *Store) Keep(tx *state.Tx, it *Item, current Snapshot) string {
	if s.git != nil && it.refCreated && current.Equal(it.Snap) {
		it.Used = true
		return it.Name
	}
	m := it.Meta
	m.Files, m.Size = len(current), 0
	for _, b := range current {
		m.Size += int64(len(b))
	}
	now := s.Dir.Time()
	nameOf := func(n int) string { return path.Join(Folder, baseName(m.Session, now, n)) }
	name := nameOf(nextFree(func(n int) bool {
		name := nameOf(n)
		if s.staged[name] {
			return true
		}
		_, errDir := os.Lstat(filepath.Join(s.Dir.Path, filepath.FromSlash(name)))
		_, errMeta := os.Lstat(filepath.Join(s.Dir.Path, filepath.FromSlash(name)+".json"))
		return !errors.Is(errDir, fs.ErrNotExist) || !errors.Is(errMeta, fs.ErrNotExist)
	}))
	if s.staged == nil {
		s.staged = map[string]bool{}
	}
	s.staged[name] = true
	for _, p := range slices.Sorted(maps.Keys(current)) { // one order, so every run takes the same steps
		tx.WriteState(filepath.FromSlash(name+"/"+p), current[p])
	}
	meta, _ := json.Marshal(m)
	tx.WriteState(filepath.FromSlash(name)+".json", append(meta, '\n'))
	return name
}

// nextFree is the suffix of the next name of a second's folder archives:
// one that taken says is free, with the one before it taken (or 1). The
// archives of a second take their names in order, so the taken ones are
// 1..k and it finds k+1 in about 2·log2(k) probes, not k: a burst of
// digest writes in one second (a benchmark, 50 writers) would otherwise
// probe every name made before it in that second.
func nextFree(taken func(n int) bool) int {
	if !taken(1) {
		return 1
	}
	lo, hi := 1, 2 // lo taken; hi not yet known
	for taken(hi) {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 { // lo taken, hi free
		mid := lo + (hi-lo)/2
		if taken(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// Abandon drops the refs Prepare created for items the transaction did
// not use (all of them when it did not happen). Best effort: an archive
// left behind loses nothing.
func (s *Store) Abandon(items []*Item) {
	if s.git == nil {
		return
	}
	var updates []gitx.RefUpdate
	for _, it := range items {
		if it.refCreated && !it.Used {
			updates = append(updates, gitx.RefUpdate{Name: it.Name, Old: it.Commit, Check: true})
			it.refCreated = false
		}
	}
	if len(updates) == 0 {
		return
	}
	c, cancel := ctx()
	defer cancel()
	_ = s.git.UpdateRefs(c, updates)
}

// Archive is one kept archive, as listed.
type Archive struct {
	Meta
	Name   string `json:"name"` // the ref, or the folder under the state dir
	Time   string `json:"time"` // the <time> of its name
	Commit string `json:"commit,omitempty"`
	// Invalid says why it is none a verb of this protocol made ("" when
	// it may be): listed, never restored, removable by cleanup --archives.
	Invalid string `json:"invalid,omitempty"`
}

// List returns the archives (of session id only, when id is not ""),
// oldest first. In a repository it runs git: never call it under the lock.
func (s *Store) List(id string) ([]Archive, error) {
	out, err := s.listFolder(id) // in a repository too: Keep's fallback
	if err == nil && s.git != nil {
		var refs []Archive
		refs, err = s.listRefs(id)
		out = append(out, refs...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Session != out[j].Session {
			return out[i].Session < out[j].Session
		}
		return timeKey(out[i].Time) < timeKey(out[j].Time)
	})
	return out, err
}

// timeKey orders names made in one second by their suffix.
func timeKey(t string) string {
	base, suffix, _ := strings.Cut(t, "-")
	n, _ := strconv.Atoi(suffix)
	return fmt.Sprintf("%s-%09d", base, n)
}

func (s *Store) listRefs(id string) ([]Archive, error) {
	c, cancel := ctx()
	defer cancel()
	prefix := RefPrefix
	if id != "" {
		prefix += Component(id) + "/"
	}
	refs, err := s.git.ListRefMessages(c, prefix)
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", RefPrefix, err)
	}
	var out []Archive
	var unsized []int
	for _, r := range refs {
		rest := strings.TrimPrefix(r.Name, RefPrefix)
		session, t := path.Split(rest)
		session = strings.TrimSuffix(session, "/")
		if session == "" || strings.Contains(session, "/") {
			continue // not named by this protocol
		}
		a := Archive{Name: r.Name, Time: t, Commit: r.ID}
		if m, ok := parseMessage(r.Message); ok && Component(m.Session) == session {
			a.Meta = m
		} else {
			a.Meta = Meta{Session: session, Kind: KindSync, Verb: "sync"}
			if when, err := time.Parse(TimeLayout, strings.SplitN(t, "-", 2)[0]); err == nil {
				a.At = when.UTC().Format(time.RFC3339)
			}
			if r.Type == "commit" {
				unsized = append(unsized, len(out))
			}
		}
		if r.Type != "commit" {
			a.Invalid = fmt.Sprintf("it points at a %s, not a commit", safetext.Escape(r.Type))
		} else {
			a.Invalid = metaProblem(a)
		}
		out = append(out, a)
	}
	if len(unsized) > 0 {
		// sync's archives carry no Meta: count their files and bytes
		// from their trees and the sizes git has, reading no file.
		objects, err := s.git.OpenObjects(c)
		if err != nil {
			return out, err
		}
		defer objects.Close()
		commits := make([]string, len(unsized))
		for k, i := range unsized {
			commits[k] = out[i].Commit
		}
		lists, errs, err := objects.ListTrees(commits)
		if err != nil {
			return out, err
		}
		listed := make(map[int][]gitx.TreeEntry, len(unsized))
		var ids []string
		for k, i := range unsized {
			if errs[k] != nil {
				continue // CheckAll says why
			}
			listed[i] = lists[k]
			for _, e := range lists[k] {
				ids = append(ids, e.ID)
			}
		}
		sizes, err := s.git.ObjectSizes(c, ids)
		if err != nil {
			return out, err
		}
		for i, entries := range listed {
			out[i].Files = len(entries)
			for _, e := range entries {
				if e.Mode != "gitlink" {
					out[i].Size += sizes[e.ID].Size
				}
			}
		}
	}
	return out, nil
}

func (s *Store) listFolder(id string) ([]Archive, error) {
	if err := noLink(s.Dir, Folder); err != nil {
		return nil, err
	}
	base := filepath.Join(s.Dir.Path, Folder)
	sessions, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Archive
	for _, sd := range sessions {
		if sd.Type()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symlink; orc-state never reads or writes through one", filepath.Join(base, sd.Name()))
		}
		if !sd.IsDir() || id != "" && sd.Name() != Component(id) {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(base, sd.Name()))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			t, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok || !e.Type().IsRegular() {
				continue
			}
			a := Archive{Name: path.Join(Folder, sd.Name(), t), Time: t}
			data, err := os.ReadFile(filepath.Join(base, sd.Name(), e.Name()))
			if err != nil {
				return nil, err
			}
			var m Meta
			switch {
			case json.Unmarshal(data, &m) != nil:
				a.Meta = Meta{Session: sd.Name()}
				a.Invalid = "its metadata " + e.Name() + " does not parse"
			case Component(m.Session) != sd.Name():
				a.Meta = m
				a.Invalid = fmt.Sprintf("its metadata names %s, kept elsewhere", safetext.Escape(m.Session))
			default:
				a.Meta = m
				a.Invalid = metaProblem(a)
			}
			if id != "" && a.Session != id {
				continue
			}
			out = append(out, a)
		}
	}
	return out, nil
}

// Pick chooses the archive of session id of one of kinds: the one made at
// t (its <time>) when t is not "", else the newest.
func Pick(all []Archive, id, t string, kinds ...string) (Archive, bool) {
	var found Archive
	ok := false
	for _, a := range all {
		if a.Session != id || !oneOf(a.Kind, kinds) || t != "" && a.Time != t {
			continue
		}
		found, ok = a, true // List is oldest first
	}
	return found, ok
}

// Near returns the sessions of all's restorable archives (a removed
// session's or an orphan folder's, valid) whose name is close to id,
// nearest first: the "did you mean" of a restore that names none.
func Near(all []Archive, id string) []string {
	var names []string
	seen := map[string]bool{}
	for _, a := range all {
		if oneOf(a.Kind, []string{KindSession, KindOrphan}) && a.Invalid == "" && !seen[a.Session] {
			seen[a.Session] = true
			names = append(names, a.Session)
		}
	}
	return suggest.Near(id, names)
}

func oneOf(k string, kinds []string) bool {
	for _, x := range kinds {
		if k == x {
			return true
		}
	}
	return false
}

// StageDelete stages, in tx, the deletion of folder archives (nothing in
// a repository: see DeleteRefs, after the transaction).
func (s *Store) StageDelete(tx *state.Tx, archives []Archive) {
	for _, a := range archives {
		if a.Commit != "" {
			continue // a ref: DeleteRefs
		}
		tx.RemoveArchive(filepath.FromSlash(a.Name))
		tx.RemoveFile(filepath.FromSlash(a.Name) + ".json")
	}
}

// DeleteRefs deletes archive refs, each only if it still names the commit
// listed (one git update-ref transaction). Run it after the transaction
// that recorded the deletion.
func (s *Store) DeleteRefs(archives []Archive) error {
	if s.git == nil || len(archives) == 0 {
		return nil
	}
	var updates []gitx.RefUpdate
	for _, a := range archives {
		if a.Commit != "" {
			updates = append(updates, gitx.RefUpdate{Name: a.Name, Old: a.Commit, Check: true})
		}
	}
	if len(updates) == 0 {
		return nil
	}
	c, cancel := ctx()
	defer cancel()
	return s.git.UpdateRefs(c, updates)
}
