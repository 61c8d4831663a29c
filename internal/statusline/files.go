package statusline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
)

// Files is the statusline's private directory: <temp dir>/orc-state-<uid>,
// mode 0700, holding per Claude Code session
//
//	place-<key>.json      the git cache: branch, HEAD and dirty mark of the last look
//	place-<key>.refresh   present while a detached refresher runs git for that cache
//	context-<key>.json    the context level of the last render (a Level)
//	warned-<key>.<tier>   hook post-tool-use warned at that tier (created once, O_EXCL)
//
// where <key> is the session id made safe for a file name (for the git
// cache, with a short hash of the work tree's root after it: one cache per
// session and place). Nothing in it is
// state: losing it costs one git status and, at worst, a repeated warning.
// Files older than a day are swept by the refresher.
type Files struct {
	dir string
}

// SweepAfter is the age past which the private files are removed.
const SweepAfter = 24 * time.Hour

// OpenFiles returns the private directory under tmp, creating it. It is
// refused (and the caller renders without cache or context file) when the
// path is not a directory of this user with no access for others: another
// user must not be able to plant a cache or read the context level.
func OpenFiles(tmp string) (*Files, error) {
	dir := filepath.Join(tmp, privateName())
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !isPrivate(fi) {
		return nil, fmt.Errorf("%s is not a private directory of this user (mode %v); not using it", dir, fi.Mode())
	}
	return &Files{dir: dir}, nil
}

// Path is the directory's path.
func (f *Files) Path() string { return f.dir }

// Key makes a Claude Code session id (or any other id) safe as part of a
// file name: letters, digits, '-' and '_' are kept, the rest dropped, at
// most 80 bytes. "" means the id cannot key a file.
func Key(id string) string {
	var b strings.Builder
	for i := 0; i < len(id) && b.Len() < 80; i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (f *Files) path(prefix, key, suffix string) string {
	return filepath.Join(f.dir, prefix+key+suffix)
}

// PlaceRecord is the git cache of one Claude Code session: what the last
// look at the directory found. It is valid for a render only when it is
// about the same directory, branch and HEAD.
type PlaceRecord struct {
	Schema    int    `json:"schema"`
	At        int64  `json:"at"`  // Unix milliseconds of the look
	Dir       string `json:"dir"` // the worktree root, or the directory outside a repository
	Branch    string `json:"branch,omitempty"`
	Head      string `json:"head,omitempty"`
	Known     bool   `json:"known"` // git answered (else Dirty means nothing)
	Dirty     bool   `json:"dirty"`
	Workspace string `json:"workspace,omitempty"` // "name (N repos)" outside a repository
	Live      int    `json:"live,omitempty"`
}

// PlaceTTL is how long a look at the work tree is shown as current.
const PlaceTTL = 5 * time.Second

// PlaceStaleMax is how long an expired look may still be shown while a
// refresh runs (a slow repository would otherwise never show its mark).
const PlaceStaleMax = 2 * time.Minute

// Age classifies a record for a render at now about dir, branch and head.
type Age int

// A record is missing (or about another place), fresh, or stale.
const (
	Missing Age = iota
	Fresh
	Stale
)

// ReadPlace returns the cached look for key and how usable it is.
func (f *Files) ReadPlace(key, dir, branch, head string, now time.Time) (PlaceRecord, Age) {
	data, err := atomicfile.ReadFile(f.path("place-", key, ".json"))
	if err != nil {
		return PlaceRecord{}, Missing
	}
	var r PlaceRecord
	if json.Unmarshal(data, &r) != nil || r.Schema != 1 || r.Dir != dir || r.Branch != branch || r.Head != head {
		return PlaceRecord{}, Missing
	}
	age := now.Sub(time.UnixMilli(r.At))
	switch {
	case age < 0 || age > PlaceStaleMax:
		return PlaceRecord{}, Missing
	case age <= PlaceTTL:
		return r, Fresh
	}
	return r, Stale
}

// WritePlace replaces the cached look for key.
func (f *Files) WritePlace(key string, r PlaceRecord) error {
	r.Schema = 1
	data, _ := json.Marshal(r)
	return atomicfile.WriteCache(f.path("place-", key, ".json"), append(data, '\n'), 0o600)
}

// RefreshBound is the longest a refresher may run; a claim older than that
// belongs to a refresher that died, and is taken over.
const RefreshBound = 30 * time.Second

// ClaimRefresh marks a refresh of key as running; false when another one
// already is (so at most one git status runs per session at a time).
func (f *Files) ClaimRefresh(key string, now time.Time) bool {
	p := f.path("place-", key, ".refresh")
	for try := 0; try < 2; try++ {
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			fh.Close()
			return true
		}
		fi, serr := os.Lstat(p)
		if serr != nil || now.Sub(fi.ModTime()) < RefreshBound {
			return false
		}
		os.Remove(p) // a refresher that died: take over
	}
	return false
}

// EndRefresh removes the claim.
func (f *Files) EndRefresh(key string) { os.Remove(f.path("place-", key, ".refresh")) }

// ReadLevel returns the context level the statusline last recorded for a
// Claude Code session.
func (f *Files) ReadLevel(key string) (Level, bool) {
	data, err := atomicfile.ReadFile(f.path("context-", key, ".json"))
	if err != nil {
		return Level{}, false
	}
	return parseLevel(data)
}

// LevelRewriteAfter is how long a recorded context level stands for renders
// that read the same level: well inside StaleAfter, so the monitor never
// takes a live session's level for a stale one.
const LevelRewriteAfter = 30 * time.Second

// WriteLevel records the context level of a render. Below red it re-arms
// the warnings: the level fell (a compaction, a cleared context), so the
// next climb is warned about again. A render that reads the level already
// recorded, under LevelRewriteAfter ago, writes nothing: most renders
// repeat the last reading, and a file write is most of their cost.
func (f *Files) WriteLevel(key string, l Level) error {
	l.Schema = 1
	if old, ok := f.ReadLevel(key); ok && sameReading(old, l) {
		return nil
	}
	data, _ := json.Marshal(l)
	if t, _ := ParseTier(l.Tier); t < Red {
		for _, t := range []Tier{Red, Critical} {
			os.Remove(f.path("warned-", key, "."+t.String()))
		}
	}
	return atomicfile.WriteCache(f.path("context-", key, ".json"), append(data, '\n'), 0o600)
}

// sameReading reports whether the render l reads what old recorded, and
// old is recent enough to stand for it.
func sameReading(old, l Level) bool {
	age := time.Duration(l.At-old.At) * time.Second
	return old.Raw == l.Raw && old.Effective == l.Effective && old.Tier == l.Tier &&
		old.Session == l.Session && age >= 0 && age < LevelRewriteAfter
}

// Warned reports whether hook post-tool-use already warned at tier t.
func (f *Files) Warned(key string, t Tier) bool {
	_, err := os.Lstat(f.path("warned-", key, "."+t.String()))
	return err == nil
}

// MarkWarned records a warning at tier t; false when another process
// recorded it first (that one warns, this one stays silent).
func (f *Files) MarkWarned(key string, t Tier) bool {
	fh, err := os.OpenFile(f.path("warned-", key, "."+t.String()), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false
	}
	fh.Close()
	return true
}

// Sweep removes the private files not touched for SweepAfter.
func (f *Files) Sweep(now time.Time) {
	entries, err := os.ReadDir(f.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > SweepAfter {
			os.Remove(filepath.Join(f.dir, e.Name()))
		}
	}
}
