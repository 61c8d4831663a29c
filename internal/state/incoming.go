package state

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
)

// EntryFile is a session's registry entry in a sync commit or an archive.
const EntryFile = "entry.json"

// The size caps of a session file come from elsewhere (docs/protocol.md
// §2): what one verb could have written. checkpoint.md is capped by its
// format; the append-only files grow by many writes.
const (
	MaxFileBytes   = 1 << 20  // an artifact, the ledger, the decisions: one input of at most 1 MiB
	MaxAppendBytes = 64 << 20 // progress.md and journal.jsonl
)

// Incoming says what content come from elsewhere is, for CheckIncoming.
type Incoming struct {
	// ID is the session (or orphan folder) it is to become.
	ID string
	// Side names it in messages: "remote", "local", "archived".
	Side string
	// Orphan: the files of a folder without a registry entry (no
	// entry.json).
	Orphan bool
	// Whole: it replaces a session whole (a restore), so it must hold
	// the files every session has (checkpoint.md and journal.jsonl).
	Whole bool
}

// CheckIncoming is the one set of content rules for a session's content
// that comes from elsewhere: a remote's commit (sync pull, resolve), what
// push would publish, and every archive a restore takes back. A file of
// it may be only what a verb could have written: a regular file (no
// symlink, no gitlink), at a plain relative path under files/ whose every
// part is a name artifact put would take (no hidden part, so no spelling
// of .git; not the name Windows gives .git; a name Linux, macOS and Windows
// can all store), within its size cap, passing its own verb's checks; the
// journal's anchor pins its tip; and entry.json, unless Orphan, is the
// valid entry of session ID. It returns the entry.
func CheckIncoming(in Incoming, tree gitx.Tree) (registry.Session, error) {
	var s registry.Session
	id := safetext.Escape(in.ID)
	if err := CheckStrays(in, tree); err != nil {
		return s, err
	}
	if !in.Orphan {
		raw, ok := tree[EntryFile]
		if !ok {
			return s, fmt.Errorf("the %s state of %s has no %s", in.Side, id, EntryFile)
		}
		if err := strictjson.Decode(raw.Data, &s); err != nil {
			return s, fmt.Errorf("the %s entry of %s is invalid: %v", in.Side, id, err)
		}
		if s.SessionID != in.ID {
			return s, fmt.Errorf("the %s entry of %s is the entry of %s", in.Side, id, safetext.Escape(s.SessionID))
		}
		if err := s.Validate(); err != nil {
			return s, fmt.Errorf("the %s entry of %s is invalid: %v", in.Side, id, err)
		}
	}
	for _, name := range sortedNames(tree) {
		rel, ok := strings.CutPrefix(name, "files/")
		if !ok {
			continue // entry.json
		}
		if err := ValidateSessionFile(rel, tree[name].Data); err != nil {
			return s, fmt.Errorf("the %s %s of %s is invalid: %v", in.Side, safetext.Escape(rel), id, err)
		}
	}
	// The anchor travels with the journal and must pin its tip.
	if anchor, ok := tree["files/"+journal.AnchorName]; ok {
		if p := journal.CheckAnchor(anchor.Data, journal.TailOf(tree["files/"+journal.FileName].Data)); p != nil {
			return s, fmt.Errorf("the %s %s of %s is invalid: %s", in.Side, journal.AnchorName, id, p.Message)
		}
	}
	if in.Whole {
		for _, must := range []string{CheckpointFile, journal.FileName} {
			if _, ok := tree["files/"+must]; !ok {
				return s, fmt.Errorf("the %s state of %s has no files/%s: it is no whole session", in.Side, id, must)
			}
		}
	}
	return s, nil
}

// CheckStrays is the part of CheckIncoming that judges each file by its
// kind, path, name and size alone (a *StrayError: no verb writes such a
// file): verify and doctor run it on a session's folder, so what push
// would refuse is named there too. entry.json is allowed beside files/
// unless Orphan.
func CheckStrays(in Incoming, tree gitx.Tree) error {
	id := safetext.Escape(in.ID)
	for _, name := range sortedNames(tree) {
		if m := tree[name].Mode; m != "" {
			return stray(name, "the %s state of %s has a %s %s: only regular files travel", in.Side, id, m, safetext.Escape(name))
		}
	}
	for _, name := range sortedNames(tree) {
		if !SafeRel(name) {
			return stray(name, "the %s state of %s has an unsafe path %q", in.Side, id, name)
		}
		for _, el := range strings.Split(name, "/") {
			if p := NameProblem(el); p != "" {
				return stray(name, "the %s state of %s has a file %s: %s", in.Side, id, safetext.Escape(name), p)
			}
		}
		if name == EntryFile && !in.Orphan {
			continue
		}
		rel, ok := strings.CutPrefix(name, "files/")
		if !ok {
			how := "pushed"
			if in.Side == "archived" {
				how = "written"
			}
			return stray(name, "the %s state of %s has %q, which this orc-state does not know (%s by a newer version? upgrade orc-state)", in.Side, id, name, how)
		}
		if f := SessionFileOf(rel); !f.Travels || !f.Archived {
			return stray(name, "the %s state of %s has %s, a file that never travels between machines", in.Side, id, safetext.Escape(name))
		}
		if err := SizeProblem(in, name, int64(len(tree[name].Data))); err != nil {
			return err
		}
	}
	return nil
}

// SizeProblem is the part of CheckStrays that judges a file at slash path
// name by its size (a *StrayError when it is over the cap of its name,
// MaxBytes; nil when it is not): a reader that knows a file's size before
// it reads it (an archive's blob, listed with its size) refuses what
// CheckStrays would, without reading more than a verb could have written.
// Any name outside files/ (entry.json) has the cap of one input.
func SizeProblem(in Incoming, name string, size int64) error {
	rel, under := strings.CutPrefix(name, "files/")
	limit := MaxFileBytes
	if under {
		limit = MaxBytes(rel)
	}
	if size > int64(limit) {
		return stray(name, "the %s %s of %s is %d bytes, over its cap of %d", in.Side, safetext.Escape(rel), safetext.Escape(in.ID), size, limit)
	}
	return nil
}

// StrayError is a file CheckIncoming refuses by its name, kind or size:
// none a verb writes, so no verb's fix applies (a hand edit put it there).
type StrayError struct {
	Path string // its slash path in the content
	msg  string
}

func (e *StrayError) Error() string { return e.msg }

func stray(path, format string, args ...any) error {
	return &StrayError{Path: path, msg: fmt.Sprintf(format, args...)}
}

// MaxBytes is the size cap of the file at a slash path under files/.
func MaxBytes(rel string) int {
	switch rel {
	case CheckpointFile:
		return checkpoint.MaxFileBytes
	case ProgressFile, journal.FileName:
		return MaxAppendBytes
	}
	return MaxFileBytes
}

// TreeOf is a snapshot as a tree of regular files (content read from
// files, where a symlink was refused already).
func TreeOf(snap gitx.Snapshot) gitx.Tree {
	out := make(gitx.Tree, len(snap))
	for p, b := range snap {
		out[p] = gitx.Blob{Data: b}
	}
	return out
}

// NameProblem says why one part of a path of a session's content may not
// be written ("" when it may), by the rules of artifact names: no hidden
// name (which covers every spelling of ".git" git refuses, also on HFS+,
// whose ignorable characters are dropped first), not a short name NTFS
// gives ".git" or ".gitmodules" (git~1, gi7eba~1, any case, with trailing
// dots and spaces), and a name Linux, macOS and Windows can all store.
func NameProblem(el string) string {
	switch {
	case strings.HasPrefix(strings.Map(dropHFSIgnorable, el), "."):
		return "a hidden name, which no verb writes (a .git among them would be a repository)"
	case ntfsShortGit(el):
		return "the name Windows gives .git"
	}
	if p := portable.Problem(el); p != "" {
		return p + " (sessions move between Linux, macOS and Windows)"
	}
	return ""
}

// ntfsShortGit reports whether el is an 8.3 short name NTFS may give a
// .git folder or .gitmodules file: GIT~N or GI7EBA~N, in any case, with
// trailing dots or spaces (which Windows drops).
func ntfsShortGit(el string) bool {
	el = strings.ToLower(strings.TrimRight(el, ". "))
	for _, stem := range []string{"git~", "gi7eba~"} {
		if n, ok := strings.CutPrefix(el, stem); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// dropHFSIgnorable drops the code points HFS+ ignores in names (so that
// ".g\u200cit" is ".git" there), keeping every other rune.
func dropHFSIgnorable(r rune) rune {
	switch {
	case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return -1
	}
	return r
}

// SafeRel accepts a slash-separated relative path whose every element is a
// plain name (no empty, ".", ".." or backslash element), and that is not a
// temp file.
func SafeRel(rel string) bool {
	if rel == "" || strings.ContainsAny(rel, "\\\x00") || path.Clean(rel) != rel || path.IsAbs(rel) || atomicfile.IsTemp(path.Base(rel)) {
		return false
	}
	for _, el := range strings.Split(rel, "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	return true
}

func sortedNames(tree gitx.Tree) []string {
	out := make([]string, 0, len(tree))
	for k := range tree {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
