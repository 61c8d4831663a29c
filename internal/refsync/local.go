package refsync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// readLocal returns a session's content as a sync commit would hold it:
// entry.json (the canonical registry entry) and every regular file under
// files/, temp files of interrupted writes skipped. It is nil when the
// registry has no such session.
func readLocal(d *state.Dir, reg *registry.Registry, id string) (gitx.Snapshot, error) {
	s := findID(reg, id)
	if s == nil {
		return nil, nil
	}
	// ReadFile refuses a files/ folder reached through a symlink.
	if _, err := d.ReadFile(id, journal.FileName); err != nil {
		return nil, err
	}
	snap := gitx.Snapshot{EntryFile: s.Canonical()}
	root := d.FilesDir(id)
	err := filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if os.IsNotExist(err) && p == root {
			return filepath.SkipDir // a session without files yet
		}
		if err != nil || de.IsDir() || !de.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !travels(rel) {
			return nil
		}
		data, err := atomicfile.ReadFile(p)
		if err != nil {
			return err
		}
		snap["files/"+rel] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read the files of %s: %w", id, err)
	}
	return snap, nil
}

// travels reports whether the file at a slash path under files/ is part
// of a sync commit: temp files of interrupted writes are not, nor a
// session file whose row in state.SessionFiles says it stays.
func travels(rel string) bool {
	return !atomicfile.IsTemp(path.Base(rel)) && state.SessionFileOf(rel).Travels
}

func findID(reg *registry.Registry, id string) *registry.Session {
	for i := range reg.Sessions {
		if reg.Sessions[i].SessionID == id {
			return &reg.Sessions[i]
		}
	}
	return nil
}

// sameContent reports whether a local snapshot holds what a commit's tree
// holds. A journal that extends the commit's only by trailing "sync pull"
// lines (how orc-state recorded imports before the sync log) is the same:
// those lines are bookkeeping, not changes.
func sameContent(local gitx.Snapshot, tree gitx.Tree) bool {
	remote := tree.Snapshot()
	if local.Equal(remote) {
		return true
	}
	name := "files/" + journal.FileName
	j, ok := local[name]
	if !ok {
		return false
	}
	trimmed := gitx.Snapshot{}
	for p, b := range local {
		trimmed[p] = b
	}
	for {
		shorter, ok := dropLegacyPull(j)
		if !ok {
			return false
		}
		j = shorter
		trimmed[name] = j
		if trimmed.Equal(remote) {
			return true
		}
	}
}

// dropLegacyPull removes the journal's last line when it is a "sync pull"
// line; ok is false when it is not.
func dropLegacyPull(j []byte) ([]byte, bool) {
	body := bytes.TrimSuffix(j, []byte("\n"))
	if len(body) == len(j) || len(body) == 0 {
		return nil, false
	}
	i := bytes.LastIndexByte(body, '\n') + 1
	var e journal.Entry
	if json.Unmarshal(body[i:], &e) != nil || e.Verb != "sync pull" {
		return nil, false
	}
	return j[:i], true
}

// identity is the author and date of the sync commit of a snapshot: the
// time of its journal's last line, else of the entry's updatedAt, so the
// same content on the same base always makes the same commit (a push that
// is repeated, or raced by itself, converges on one id).
func identity(snap gitx.Snapshot) gitx.Identity {
	who := gitx.Identity{Name: "orc-state", Email: "orc-state@localhost", When: time.Unix(0, 0).UTC()}
	if j := snap["files/"+journal.FileName]; len(j) > 0 {
		body := bytes.TrimSuffix(j, []byte("\n"))
		var e journal.Entry
		if json.Unmarshal(body[bytes.LastIndexByte(body, '\n')+1:], &e) == nil {
			if t, err := time.Parse(time.RFC3339Nano, e.At); err == nil {
				who.When = t
				return who
			}
		}
	}
	var entry struct {
		UpdatedAt string `json:"updatedAt"`
	}
	if json.Unmarshal(snap[EntryFile], &entry) == nil {
		if t, err := time.Parse(time.RFC3339Nano, entry.UpdatedAt); err == nil {
			who.When = t
		}
	}
	return who
}

// credential names the first file of a snapshot holding credential-shaped
// text (the patterns of internal/secrets), without the match.
func credential(snap gitx.Snapshot) (string, bool) {
	for _, p := range sortedKeys(snap) {
		if kind, line, ok := secrets.Find(snap[p]); ok {
			return fmt.Sprintf("%s line %d looks like a credential (%s)", p, line, kind), true
		}
	}
	return "", false
}
