package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// InvalidError says why an archive cannot be restored: it is not what a
// verb of this protocol could have archived.
type InvalidError struct {
	Name   string // the archive
	Reason string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%s cannot be restored: %s", safetext.Escape(e.Name), e.Reason)
}

// Restorable is an archive read back and validated as a whole.
type Restorable struct {
	Archive
	Snap Snapshot
	// Entry is the registry entry it holds (nil for an orphan's).
	Entry *registry.Session
	// Bindings are the worktree bindings a removed session had
	// (BindingsFile), not part of Snap.
	Bindings []binding.Binding
}

// metaProblem says why an archive's metadata (and the name it is kept
// under) is none a verb writes ("" when it is): an unknown kind, a
// session (or orphan) name orc-state could never have given it, a time
// that does not parse.
func metaProblem(a Archive) string {
	switch a.Kind {
	case KindSession, KindLedger, KindDigest, KindSync:
		if err := registry.CheckKey(a.Session); err != nil {
			return fmt.Sprintf("it names no session (%v)", err)
		}
	case KindOrphan:
		if p := OrphanNameProblem(a.Session); p != "" {
			return "it names no orphan folder: " + p
		}
	default:
		return fmt.Sprintf("its kind %s is none orc-state makes", safetext.Escape(fmt.Sprintf("%q", a.Kind)))
	}
	if _, err := time.Parse(registry.TimeLayout, a.At); err != nil && a.Kind != KindSync {
		return fmt.Sprintf("its time %s does not parse", safetext.Escape(fmt.Sprintf("%q", a.At)))
	}
	if base, _, _ := strings.Cut(a.Time, "-"); !timeName(a.Time) {
		return fmt.Sprintf("its name's time %s does not parse", safetext.Escape(fmt.Sprintf("%q", base)))
	}
	return ""
}

// timeName reports whether t is the <time> of an archive's name:
// YYYYMMDDTHHMMSSZ, optionally -N.
func timeName(t string) bool {
	base, n, hasN := strings.Cut(t, "-")
	if _, err := time.Parse(TimeLayout, base); err != nil {
		return false
	}
	return !hasN || n != "" && strings.Trim(n, "0123456789") == "" && n[0] != '0'
}

// OrphanNameProblem says why name can never be an orphan folder of a state
// dir ("" when it can): not one plain name, hidden, or a name orc-state
// or the repository owns there (orc.json, sync.jsonl, worktrees.json,
// removed.jsonl, knowledge, ...), also in another case or with the
// trailing dots and spaces Windows drops.
func OrphanNameProblem(name string) string {
	switch {
	case name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || filepath.Base(name) != name:
		return fmt.Sprintf("%q is not one plain name", name)
	case strings.HasPrefix(name, "."):
		return fmt.Sprintf("%q is hidden: the state dir's own files (.lock, .archive, ...) are", name)
	}
	if owned(name) {
		return fmt.Sprintf("%s is a file or folder the state dir owns", safetext.Escape(name))
	}
	return ""
}

// owned reports whether a top-level name of the state dir is one orc-state
// or the repository owns, as macOS and Windows would see it too (in any
// case, with trailing dots and spaces dropped).
func owned(name string) bool {
	return registry.IsReserved(name) || registry.IsReserved(strings.ToLower(strings.TrimRight(name, ". ")))
}

// Check validates an archive as a whole, by its content and whatever its
// metadata claims: its metadata, then its files by the rules every import
// and restore applies (state.CheckIncoming), and that the files are what
// its kind holds (a session's or a sync side's: a whole session; a
// ledger's: entry.json and files/slices.json; a digest's: entry.json and
// files/checkpoint.md; an orphan's: no entry).
func Check(a Archive, tree gitx.Tree) (Restorable, error) {
	r := Restorable{Archive: a}
	bad := func(format string, args ...any) (Restorable, error) {
		return r, &InvalidError{Name: a.Name, Reason: fmt.Sprintf(format, args...)}
	}
	if a.Invalid != "" {
		return bad("%s", a.Invalid)
	}
	if p := metaProblem(a); p != "" {
		return bad("%s", p)
	}
	in := state.Incoming{ID: a.Session, Side: "archived"}
	var only []string
	switch a.Kind {
	case KindSession, KindSync:
		in.Whole = true
	case KindOrphan:
		in.Orphan = true
		if _, ok := tree[EntryFile]; ok {
			return bad("it is listed as an orphan's but holds an entry")
		}
	case KindLedger:
		only = []string{EntryFile, "files/" + state.LedgerFile}
	case KindDigest:
		only = []string{EntryFile, "files/" + state.CheckpointFile}
	}
	if only != nil {
		var have []string
		for p := range tree {
			have = append(have, p)
		}
		sort.Strings(have)
		if strings.Join(have, "\n") != strings.Join(only, "\n") {
			return bad("a %s archive holds %s, not %s", a.Kind, strings.Join(only, " and "), safetext.Escape(strings.Join(have, ", ")))
		}
	}
	if raw, ok := tree[BindingsFile]; ok && a.Kind == KindSession && raw.Mode == "" {
		f, err := binding.Parse(raw.Data)
		if err != nil {
			return bad("its %v", err)
		}
		for _, b := range f.Worktrees {
			if b.Session != a.Session {
				return bad("its %s binds %s to session %s", BindingsFile, safetext.Escape(b.Path), safetext.Escape(b.Session))
			}
		}
		r.Bindings = f.Worktrees
		rest := make(gitx.Tree, len(tree))
		for p, b := range tree {
			if p != BindingsFile {
				rest[p] = b
			}
		}
		tree = rest
	}
	entry, err := state.CheckIncoming(in, tree)
	if err != nil {
		return bad("%v", err)
	}
	if !in.Orphan {
		r.Entry = &entry
	}
	r.Snap = tree.Snapshot()
	return r, nil
}

// Restore reads an archive within its budget (read.go) and validates it
// as a whole (Check). An
// *InvalidError says why it cannot be restored; any other error, why it
// could not be read. In a repository it runs git: never call it under the
// lock.
func (s *Store) Restore(a Archive) (Restorable, error) {
	if a.Invalid != "" {
		return Check(a, nil)
	}
	var r Restorable
	err := s.read([]Archive{a}, func(_ int, tree gitx.Tree, err error) error {
		if err == nil {
			r, err = Check(a, tree)
		}
		return err
	})
	if err != nil {
		return Restorable{Archive: a}, err
	}
	return r, nil
}

// noLink refuses a path under the state dir (relative) reached through a
// symlink: a symlinked .archive must never lead a read outside it.
func noLink(d *state.Dir, rel string) error {
	p := d.Path
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil {
			return nil // the rest does not exist
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; orc-state never reads or writes through one", p)
		}
	}
	return nil
}
