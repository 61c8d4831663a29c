package cli

// What the sync verbs share: the ref layout, fetching, and a session's
// snapshot.

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Sync refs: each session's state is a commit on localRef(id); a fetch
// brings the remote's into remoteRef(remote, id), never over local refs.
const (
	syncPrefix   = "refs/orc/sessions/"
	remotePrefix = "refs/orc/remotes/"
	entryFile    = "entry.json"
	syncTimeout  = 2 * time.Minute
)

func localRef(id string) string          { return syncPrefix + id }
func remoteRef(remote, id string) string { return remoteRefs(remote) + id }

// remoteRefs is the tracking namespace of a remote: its name when it is a
// plain remote name, else (a path or URL) a digest of it, so the ref name
// is always valid.
func remoteRefs(remote string) string {
	if registry.OriginalKey(remote) != remote || strings.HasPrefix(remote, ".") { // the characters a ref name can hold
		remote = "url-" + journal.Sum([]byte(remote))[:16]
	}
	return remotePrefix + remote + "/"
}

func fetchSpec(remote string) string { return "+" + syncPrefix + "*:" + remoteRefs(remote) + "*" }
func pushSpec(id string) string      { return localRef(id) + ":" + localRef(id) }
func syncCtx() (context.Context, func()) {
	return context.WithTimeout(context.Background(), syncTimeout)
}

// syncEnv is what every sync verb needs: the state dir and the repository.
func (e *Env) syncEnv() (*state.Dir, *gitx.Repo, error) {
	d, err := e.Dir()
	if err != nil {
		return nil, nil, err
	}
	if d.Git == nil {
		return nil, nil, fault.Usagef("sync needs a git repository")
	}
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return nil, nil, fault.Wrap(fault.Invalid, err, "cannot open the repository")
	}
	return d, r, nil
}

// fetch brings the remote's session refs into the tracking namespace.
func fetch(d *state.Dir, remote string) error {
	ctx, cancel := syncCtx()
	defer cancel()
	if _, err := d.Git.Run(ctx, "fetch", "--quiet", "--no-tags", "--prune", remote, fetchSpec(remote)); err != nil {
		return fault.Wrap(fault.NotFound, err, "cannot fetch from %s", remote)
	}
	return nil
}

// snapshot reads a session's entry and files under the lock, so they are
// from one moment; temp files are skipped.
func (e *Env) snapshot(d *state.Dir, id string) (gitx.Snapshot, error) {
	snap := gitx.Snapshot{}
	err := e.onChoice(choice{id: id}, func(tx *state.Tx, s *registry.Session) error {
		snap[entryFile] = s.Canonical()
		root := tx.Dir().FilesDir(s.SessionID)
		return filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
			if err != nil || de.IsDir() || atomicfile.IsTemp(de.Name()) || !de.Type().IsRegular() {
				return err
			}
			data, err := atomicfile.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			snap["files/"+filepath.ToSlash(rel)] = data
			return err
		})
	})
	return snap, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
