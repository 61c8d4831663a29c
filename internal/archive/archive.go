// Package archive keeps what orc-state's destructive verbs remove, before
// they remove it, and reads it back for the restore verbs
// (docs/protocol.md §21).
//
// An archive is a set of files by slash-separated path, in the layout of a
// sync commit (docs/sync.md): entry.json (the session's registry entry)
// and files/... (the files of its folder). A removed session keeps all of
// them; a replaced ledger or digest keeps entry.json and the one file it
// replaced; a removed orphan folder keeps its files.
//
// Where it is kept depends on the state dir:
//
//   - the repository's own state dir, with a git program: a parentless
//     commit under refs/orc/archive/<sessionId>/<time>, the namespace sync
//     keeps its discarded sides in, never pushed. Its message carries the
//     archive's Meta as one JSON line. The objects and the ref are written
//     before the writers' lock is taken (no git runs under it): the
//     transaction then checks, under the lock, that what it removes is
//     still what was archived, and a transaction that does not happen drops
//     the ref again.
//   - anywhere else (--dir or $ORC_STATE_DIR outside the repository, no
//     repository, no git program): the folder .archive/<sessionId>/<time>/
//     of the state dir with the same files, and its Meta beside it as
//     .archive/<sessionId>/<time>.json, written by the removing transaction
//     itself.
//
// Only `cleanup --archives` deletes an archive.
package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Where archives are kept, and the names inside one.
const (
	// RefPrefix is the ref namespace of archives in a repository (shared
	// with sync's archives of discarded sides).
	RefPrefix = "refs/orc/archive/"
	// Folder is the state dir's folder of archives outside a repository.
	Folder = state.ArchiveFolder
	// EntryFile is the session's registry entry inside an archive.
	EntryFile = "entry.json"
	// BindingsFile holds, in the archive of a removed session, the
	// worktree bindings it had (a worktrees.json of those only).
	BindingsFile = "worktrees.json"
	// TimeLayout names an archive after the second it was made (UTC).
	TimeLayout = "20060102T150405Z"
)

// The kinds of archive.
const (
	KindSession = "session" // a removed session: entry.json and every file of its folder
	KindOrphan  = "orphan"  // a removed orphan folder: its files
	KindLedger  = "ledger"  // a replaced slices.json: entry.json and files/slices.json
	KindDigest  = "digest"  // a replaced Resume digest: entry.json and files/checkpoint.md
	KindSync    = "sync"    // a side sync resolve or a replacing pull discarded (listed only)
)

// Meta says what an archive holds and what made it.
type Meta struct {
	Session string `json:"session"`
	Kind    string `json:"kind"`
	Verb    string `json:"verb"`
	Actor   string `json:"actor"`
	At      string `json:"at"`
	Files   int    `json:"files"`
	Size    int64  `json:"size"` // the bytes of its files
}

// Snapshot is an archive's files by slash-separated path.
type Snapshot = gitx.Snapshot

// Item is one archive a verb makes: filled in before the lock (Meta and
// Snap), named by Prepare (git) or Stage (folder).
type Item struct {
	Meta Meta
	Snap Snapshot
	// Name is where it is kept: the ref, or the folder relative to the
	// state dir (.archive/<id>/<time>).
	Name   string
	Commit string // the commit, in a repository
	// Used is set by the transaction for an archive whose content it
	// removed or replaced; the others are dropped after it.
	Used bool
	// refCreated is set once the ref exists (git).
	refCreated bool
	// InFolder keeps it as a folder archive under .archive/, staged by
	// the transaction, also in a repository: no git process for an
	// archive made often (a replaced digest).
	InFolder bool
}

// Time is the <time> part of the archive's name.
func (it *Item) Time() string { return path.Base(it.Name) }

// NewItem describes an archive of snap made by verb at (a recorded
// timestamp, registry.Stamp).
func NewItem(id, kind, verb, actor, at string, snap Snapshot) *Item {
	m := Meta{Session: id, Kind: kind, Verb: verb, Actor: actor, At: at, Files: len(snap)}
	for _, b := range snap {
		m.Size += int64(len(b))
	}
	return &Item{Meta: m, Snap: snap}
}

// ReadSession returns a session as an archive holds it: entry.json (its
// canonical registry entry, from reg) and every regular file of its folder
// by its path there (files/...), temp files of interrupted writes left
// out. nil when the registry has no such session.
func ReadSession(d *state.Dir, reg *registry.Registry, id string) (Snapshot, error) {
	var s *registry.Session
	for i := range reg.Sessions {
		if reg.Sessions[i].SessionID == id {
			s = &reg.Sessions[i]
		}
	}
	if s == nil {
		return nil, nil
	}
	snap, err := ReadFolder(d, id)
	if err != nil {
		return nil, err
	}
	snap[EntryFile] = s.Canonical()
	return snap, nil
}

// ReadFolder returns every regular file under the state dir's folder
// name, by its slash-separated path there, temp files and the session
// files an archive does not keep (state.Kept) left out; empty
// when the folder does not exist. A folder or file reached through a
// symlink is refused.
func ReadFolder(d *state.Dir, name string) (Snapshot, error) {
	root := filepath.Join(d.Path, name)
	snap := Snapshot{}
	st, err := os.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return snap, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", root)
	}
	err = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; orc-state never reads through one", p)
		}
		if de.IsDir() || atomicfile.IsTemp(de.Name()) || !de.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !state.Kept(rel) {
			return nil
		}
		data, err := atomicfile.ReadFile(p)
		if err != nil {
			return err
		}
		snap[rel] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	return snap, nil
}

// FileSnapshot is the archive of one replaced session file: entry.json
// and files/<name>.
func FileSnapshot(s *registry.Session, name string, old []byte) Snapshot {
	return Snapshot{EntryFile: s.Canonical(), "files/" + name: old}
}

// Credential names the first file of an archive holding credential-shaped
// text (the patterns of internal/secrets), without the match: such text is
// never archived.
func Credential(snap Snapshot) (string, bool) {
	paths := make([]string, 0, len(snap))
	for p := range snap {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if kind, _, ok := secrets.FindDecoded([]byte(p)); ok {
			return fmt.Sprintf("a file name (%s)", kind), true
		}
		if kind, line, ok := secrets.FindDecoded(snap[p]); ok {
			return fmt.Sprintf("%s line %d (%s)", safetext.Escape(p), line, kind), true
		}
	}
	return "", false
}

// DigestOf is the Resume digest section of a checkpoint ("" when none).
func DigestOf(checkpointFile []byte) string {
	if checkpointFile == nil {
		return ""
	}
	text, _ := checkpoint.Section(checkpoint.Parse(checkpointFile).Body, checkpoint.DigestHeading)
	return string(text)
}

// baseName is the name of an archive of session id made at t, the n-th in
// that second (n > 1 adds a suffix).
func baseName(id string, t time.Time, n int) string {
	name := Component(id) + "/" + t.UTC().Format(TimeLayout)
	if n > 1 {
		name += "-" + strconv.Itoa(n)
	}
	return name
}

// Component is the part of an archive's name that stands for session id:
// the id itself when git takes it as a ref name component (every sessionId
// but one holding "..", ending with "." or ".lock"), else "x-" and 16 hex
// digits of its sha256 (an orphan folder may be named anything). The
// archive's Meta keeps the id as it is.
func Component(id string) string {
	ok := id != "" && !strings.HasPrefix(id, ".") && !strings.Contains(id, "..") &&
		!strings.HasSuffix(id, ".") && !strings.HasSuffix(id, ".lock") && !strings.HasPrefix(id, "x-")
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if ok {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "x-" + hex.EncodeToString(sum[:8])
}

// atTime is the time an archive's Meta was made at.
func atTime(m Meta) time.Time {
	t, err := time.Parse(registry.TimeLayout, m.At)
	if err != nil {
		return time.Unix(0, 0)
	}
	return t
}

// message is the commit message of an archive in a repository: a subject,
// then its Meta as one JSON line.
func message(m Meta) string {
	meta, _ := json.Marshal(m)
	return fmt.Sprintf("orc-state archive: %s before %s\n\n%s", m.Session, m.Verb, meta)
}

// parseMessage reads the Meta of a commit message; ok is false for a
// commit without one (sync's archives).
func parseMessage(msg string) (Meta, bool) {
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(line, "{") {
			var m Meta
			if json.Unmarshal([]byte(line), &m) == nil && m.Kind != "" {
				return m, true
			}
		}
	}
	return Meta{}, false
}

// ReadSessions is ReadSession for many sessions, read a few at a time
// (a sweep's sessions are small files, read at the speed of the disk's
// metadata): by sessionId, without the sessions reg lacks.
func ReadSessions(d *state.Dir, reg *registry.Registry, ids []string) (map[string]Snapshot, error) {
	byID := make(map[string]*registry.Session, len(reg.Sessions))
	for i := range reg.Sessions {
		byID[reg.Sessions[i].SessionID] = &reg.Sessions[i]
	}
	out := make(map[string]Snapshot, len(ids))
	var mu sync.Mutex
	var first error
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(4, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				s := byID[id]
				if s == nil {
					continue
				}
				snap, err := ReadFolder(d, id)
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("%s: %w", id, err)
				}
				if err == nil {
					snap[EntryFile] = s.Canonical()
					out[id] = snap
				}
				mu.Unlock()
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	return out, first
}
