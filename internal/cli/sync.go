package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
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
	if registry.Sanitize(remote) != remote || strings.HasPrefix(remote, ".") {
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
	err := e.onSession(id, func(tx *state.Tx, s *registry.Session) error {
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

// Run records each selected session as a commit on its sync ref and
// pushes the refs; a remote that moved on is refused with both heads.
func (c *SyncPushCmd) Run(e *Env) error {
	d, r, err := e.syncEnv()
	if err != nil {
		return err
	}
	ids, err := e.syncSelection(d, c.Key)
	if err != nil {
		return err
	}
	_ = fetch(d, c.Remote) // a remote without our refs yet is fine
	var specs []string
	for _, id := range ids {
		snap, err := e.snapshot(d, id)
		if err != nil {
			return err
		}
		for _, name := range sortedKeys(snap) {
			if kind, line, ok := secrets.Find(snap[name]); ok {
				return fault.Usagef("%s/%s line %d looks like a credential (%s); nothing was pushed", id, name, line, kind).
					WithHint("remove the secret from the session, then push again")
			}
		}
		parent, _ := r.Ref(localRef(id))
		head, err := r.CommitSnapshot(snap, parent, "orc-state sync: "+id, time.Now().UTC())
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot record %s", id)
		}
		if parent != "" {
			if pt, _ := r.TreeOf(parent); pt != "" {
				if ht, _ := r.TreeOf(head); ht == pt {
					head = parent // nothing changed since the last sync commit
				}
			}
		}
		if remote, ok := r.Ref(remoteRef(c.Remote, id)); ok && remote != head {
			if _, reachable, err := r.CommitsBetween(remote, head); err != nil || !reachable {
				return fault.NotFoundf("%s: the remote is at %s, which the local sync commit %s does not contain", id, short(remote), short(head)).
					WithHint("orc-state sync pull --remote %s %s, then push again", c.Remote, id)
			}
		}
		if err := r.SetRef(localRef(id), head); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot update %s", localRef(id))
		}
		specs = append(specs, pushSpec(id))
	}
	ctx, cancel := syncCtx()
	defer cancel()
	if _, err := d.Git.Run(ctx, append([]string{"push", "--quiet", c.Remote}, specs...)...); err != nil {
		return fault.Wrap(fault.NotFound, err, "push to %s refused", c.Remote).WithHint("orc-state sync status, then sync pull")
	}
	for _, id := range ids {
		head, _ := r.Ref(localRef(id))
		_ = r.SetRef(remoteRef(c.Remote, id), head)
		fmt.Fprintf(e.Stdout, "pushed\t%s\t%s\n", id, short(head))
	}
	return nil
}

// syncSelection is the named session, else every session of the registry.
func (e *Env) syncSelection(d *state.Dir, key string) ([]string, error) {
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	if key != "" {
		s := lookup(reg, key)
		if s == nil {
			return nil, notFound(key)
		}
		return []string{s.SessionID}, nil
	}
	var ids []string
	for _, s := range reg.Sessions {
		ids = append(ids, s.SessionID)
	}
	if len(ids) == 0 {
		return nil, fault.NotFoundf("no sessions to push")
	}
	return ids, nil
}

// relation compares a local journal with a remote one. The "sync pull"
// lines a machine adds to record its own imports do not make it ahead or
// divergent: a machine that only follows a session can always pull again,
// and one whose only extra lines are imports is in sync.
func relation(local, remote []byte) string {
	switch {
	case bytes.Equal(local, remote):
		return "in sync"
	case bytes.HasPrefix(local, remote):
		if len(withoutTrailingPulls(local)) <= len(remote) {
			return "in sync"
		}
		return "ahead"
	case bytes.HasPrefix(remote, local), bytes.HasPrefix(remote, withoutTrailingPulls(local)):
		return "behind"
	default:
		return "diverged"
	}
}

// Run fetches the remote's session refs and imports each session whose
// remote journal extends the local one (or that is absent here); a
// divergent session is refused with both heads.
func (c *SyncPullCmd) Run(e *Env) error {
	d, r, err := e.syncEnv()
	if err != nil {
		return err
	}
	if err := fetch(d, c.Remote); err != nil {
		return err
	}
	refs, err := r.Refs(remoteRefs(c.Remote))
	if err != nil {
		return err
	}
	var diverged []string
	found := false
	for _, name := range sortedKeys(refs) {
		id := strings.TrimPrefix(name, remoteRefs(c.Remote))
		if c.Key != "" && id != c.Key && id != registry.Sanitize(c.Key) {
			continue
		}
		found = true
		snap, err := r.ReadSnapshot(refs[name])
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot read the remote state of %s", id)
		}
		local, _ := d.ReadFile(id, journal.FileName)
		rel := relation(local, snap["files/"+journal.FileName])
		if local == nil {
			rel = "behind"
		}
		switch rel {
		case "behind":
			if err := e.importSession(d, id, snap, local, refs[name]); err != nil {
				return err
			}
			_ = r.SetRef(localRef(id), refs[name])
			fmt.Fprintf(e.Stdout, "imported\t%s\t%s\n", id, short(refs[name]))
		case "diverged":
			head, _ := r.Ref(localRef(id))
			diverged = append(diverged, fmt.Sprintf("%s (local %s, remote %s)", id, orNone(short(head)), short(refs[name])))
		default:
			fmt.Fprintf(e.Stdout, "%s\t%s\n", strings.ReplaceAll(rel, " ", "-"), id)
		}
	}
	if c.Key != "" && !found {
		return fault.NotFoundf("%s has no session %q", c.Remote, c.Key).WithHint("orc-state sync status --remote %s", c.Remote)
	}
	if len(diverged) > 0 {
		return fault.NotFoundf("diverged, not imported: %s", strings.Join(diverged, "; ")).
			WithHint("both sides changed the session; keep one: orc-state session remove X --force then sync pull, or sync push from the side to keep after removing the other's ref")
	}
	return nil
}

// importSession replaces a session's entry and files with the remote's,
// under the lock, after checking the local journal did not move meanwhile.
// Nothing is half-imported: the entry is validated before anything is
// written.
func (e *Env) importSession(d *state.Dir, id string, snap gitx.Snapshot, localJournal []byte, commit string) error {
	var s registry.Session
	if err := strictjson.Decode(snap[entryFile], &s); err != nil {
		return fault.Invalidf("the remote entry of %s is invalid: %v", id, err)
	}
	if err := s.Validate(); err != nil {
		return fault.Invalidf("the remote entry of %s is invalid: %v", id, err)
	}
	if s.SessionID != id {
		return fault.Invalidf("the remote entry of %s is invalid: it is the entry of %s; nothing was imported", id, s.SessionID)
	}
	for _, name := range sortedKeys(snap) { // the first fault in name order, on every run
		data := snap[name]
		rel, ok := strings.CutPrefix(name, "files/")
		if !ok {
			continue
		}
		if strings.Contains(rel, "..") || strings.HasPrefix(rel, "/") {
			return fault.Invalidf("the remote state of %s has an unsafe path %q", id, name)
		}
		for _, part := range strings.Split(rel, "/") {
			if p := portable.Problem(part); p != "" {
				return fault.Usagef("the remote state of %s has a file %s: %s; nothing was imported", id, name, p).
					WithHint("remove or rename that artifact on the machine that pushed it, push again, then pull")
			}
		}
		if err := validateFile(rel, data); err != nil {
			return fault.Invalidf("the remote %s of %s is invalid: %v; nothing was imported", rel, id, err)
		}
	}
	return e.Update(func(tx *state.Tx) error {
		now, err := tx.Read(id, journal.FileName)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, localJournal) {
			return fault.NotFoundf("%s changed while pulling; run sync pull again", id)
		}
		tx.Replace(id)
		if cur := findExact(tx.Reg, id); cur != nil {
			*cur = s
		} else if err := keyTaken(tx, &s); err != nil {
			return err
		} else {
			tx.Reg.Sessions = append(tx.Reg.Sessions, s)
		}
		tx.RegistryChanged()
		for _, name := range sortedKeys(snap) {
			if rel, ok := strings.CutPrefix(name, "files/"); ok {
				tx.Write(id, filepath.FromSlash(rel), snap[name])
			}
		}
		tx.Touch(id, map[string]string{"commit": commit})
		return nil
	})
}

// validateFile applies to an imported file the checks its own verb would.
func validateFile(name string, data []byte) error {
	switch name {
	case state.LedgerFile:
		_, err := slices.Parse(data)
		return err
	case state.DecisionsFile:
		_, err := decisions.Parse(data)
		return err
	case state.CheckpointFile:
		if doc := checkpoint.Parse(data); doc.Front == nil {
			return fmt.Errorf("no valid frontmatter")
		}
	case journal.FileName:
		if _, problems, _ := journal.Parse(data); len(problems) > 0 {
			return fmt.Errorf("%s", problems[0].Message)
		}
	}
	return nil
}

// Run compares each session with the remote's copy.
func (c *SyncStatusCmd) Run(e *Env) error {
	d, r, err := e.syncEnv()
	if err != nil {
		return err
	}
	if !c.NoFetch {
		if err := fetch(d, c.Remote); err != nil {
			return err
		}
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return err
	}
	refs, _ := r.Refs(remoteRefs(c.Remote))
	rows := map[string]string{}
	for _, s := range reg.Sessions {
		rows[s.SessionID] = "not pushed"
	}
	for name, sha := range refs {
		id := strings.TrimPrefix(name, remoteRefs(c.Remote))
		local, _ := d.ReadFile(id, journal.FileName)
		if _, ok := rows[id]; !ok {
			rows[id] = "remote only"
			continue
		}
		snap, err := r.ReadSnapshot(sha)
		if err != nil {
			rows[id] = "unreadable remote"
			continue
		}
		rows[id] = relation(local, snap["files/"+journal.FileName])
	}
	out := map[string]string{}
	for _, id := range sortedKeys(rows) {
		out[id] = rows[id]
		if !c.JSON {
			fmt.Fprintf(e.Stdout, "%s\t%s\n", id, rows[id])
		}
	}
	if c.JSON {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(e.Stdout, string(b))
	}
	return nil
}

// withoutTrailingPulls drops the trailing "sync pull" lines of a journal.
func withoutTrailingPulls(j []byte) []byte {
	for len(j) > 0 {
		body := bytes.TrimSuffix(j, []byte("\n"))
		i := bytes.LastIndexByte(body, '\n') + 1
		var e journal.Entry
		if json.Unmarshal(body[i:], &e) != nil || e.Verb != "sync pull" {
			return j
		}
		j = j[:i]
	}
	return j
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
