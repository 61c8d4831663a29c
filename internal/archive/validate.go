package archive

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
)

// ValidateSession applies to an archived session, before it is restored,
// the checks its verbs would: its entry (strict, valid, and the entry of
// session id), plain paths, and the files that have a schema. It returns
// the entry.
func ValidateSession(id string, snap Snapshot) (registry.Session, error) {
	var s registry.Session
	raw, ok := snap[EntryFile]
	if !ok {
		return s, fmt.Errorf("it has no %s", EntryFile)
	}
	if err := strictjson.Decode(raw, &s); err != nil {
		return s, fmt.Errorf("its entry is invalid: %v", err)
	}
	if s.SessionID != id {
		return s, fmt.Errorf("its entry is the entry of %q", s.SessionID)
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("its entry is invalid: %v", err)
	}
	if err := ValidatePaths(snap); err != nil {
		return s, err
	}
	for _, p := range sortedPaths(snap) {
		rel, ok := strings.CutPrefix(p, "files/")
		if !ok {
			continue
		}
		if err := state.ValidateSessionFile(rel, snap[p]); err != nil {
			return s, fmt.Errorf("its %s is invalid: %v", p, err)
		}
	}
	if anchor, ok := snap["files/"+journal.AnchorName]; ok {
		if p := journal.CheckAnchor(anchor, journal.TailOf(snap["files/"+journal.FileName])); p != nil {
			return s, fmt.Errorf("its %s is invalid: %s", journal.AnchorName, p.Message)
		}
	}
	return s, nil
}

// ValidatePaths refuses an archive holding a path that is not a plain
// relative one (empty, "." or ".." parts, a backslash, a temp file's name).
func ValidatePaths(snap Snapshot) error {
	for _, p := range sortedPaths(snap) {
		if p == "" || strings.ContainsAny(p, "\\\x00") || path.Clean(p) != p || path.IsAbs(p) || atomicfile.IsTemp(path.Base(p)) {
			return fmt.Errorf("it holds an unsafe path %q", p)
		}
		for _, el := range strings.Split(p, "/") {
			if el == "" || el == "." || el == ".." {
				return fmt.Errorf("it holds an unsafe path %q", p)
			}
		}
	}
	return nil
}

func sortedPaths(snap Snapshot) []string {
	out := make([]string, 0, len(snap))
	for p := range snap {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
