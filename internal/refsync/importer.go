package refsync

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// validateRemote applies to a remote commit, before anything is written,
// the checks its own verbs would (state.CheckIncoming, the rules every
// restore applies too). It returns the entry to import.
func validateRemote(id string, tree gitx.Tree) (registry.Session, error) {
	return validateTree(id, tree, "remote")
}

// validateTree is state.CheckIncoming for a commit read back: a symlink
// or gitlink in it, which no verb writes, is refused too.
func validateTree(id string, tree gitx.Tree, side string) (registry.Session, error) {
	return state.CheckIncoming(state.Incoming{ID: id, Side: side, Whole: side == "archived"}, tree)
}

// validateLocal applies the same checks to what push would publish, so
// that no machine publishes a state that every other would refuse (a torn
// journal, a hand-broken ledger).
func validateLocal(id string, snap gitx.Snapshot) error {
	_, err := state.CheckIncoming(state.Incoming{ID: id, Side: "local"}, state.TreeOf(snap))
	return err
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// logLine is one line of the sync log (.orc/sync.jsonl): an import or a
// resolution, recorded outside the session so that it is no change of it.
type logLine struct {
	At      string `json:"at"`
	Actor   string `json:"actor"`
	Verb    string `json:"verb"`
	Session string `json:"session"`
	Remote  string `json:"remote"` // the tracking name: a remote name, or url-<hex>
	Commit  string `json:"commit"` // the commit imported (the new base)
	Keep    string `json:"keep,omitempty"`
	Archive string `json:"archive,omitempty"`
	Local   string `json:"local,omitempty"` // the local commit archived
}

func (s *Syncer) logLine(id, commit string) logLine {
	ns := strings.TrimSuffix(strings.TrimPrefix(Namespace(s.Remote), RemotesPrefix), "/")
	return logLine{At: s.Dir.Now(), Actor: s.Opts.Actor, Verb: s.Opts.Verb, Session: id, Remote: ns, Commit: commit}
}

// importJob is one session to replace with a remote commit.
type importJob struct {
	ss    *session
	entry registry.Session
	log   logLine
	// archiveBase: the import drops what this machine had, which is
	// archived before it: the base, when the remote commit does not
	// descend from it, or the local side, when changes of it are
	// superseded.
	archiveBase bool
	// superseded are the local changes the remote's side lacks: the
	// import replaces them (another machine's resolution kept its own
	// side).
	superseded []change
}

// archived is the commit an import archives: the local side when it
// supersedes changes (the local content is its effective base's), else
// the base.
func (j *importJob) archived() string {
	if len(j.superseded) > 0 {
		return j.ss.effBase
	}
	return j.ss.base
}

// applyImports imports every job in one transaction. A session whose local
// content moved since it was surveyed is skipped (errChanged), unless it
// now already equals the remote's (nil: nothing to do); the others are
// imported whole. The sessions' journals are not touched: the import is
// recorded in the sync log.
func (s *Syncer) applyImports(jobs []*importJob) (skipped map[string]error, err error) {
	err = s.Dir.Update(context.Background(), s.Opts, func(tx *state.Tx) error {
		skipped = map[string]error{}
		for _, j := range jobs {
			id := j.ss.id
			now, err := readLocal(tx.Dir(), tx.Reg, id)
			if err != nil {
				return err
			}
			if now == nil {
				if err := sameFolder(tx.Reg, j.entry); err != nil {
					skipped[id] = err
					continue
				}
			}
			if !j.ss.local.Equal(now) {
				if now != nil && sameContent(now, j.ss.remoteTree) {
					skipped[id] = nil
				} else {
					skipped[id] = errChanged
				}
				continue
			}
			importInto(tx, j, now)
		}
		return nil
	})
	return skipped, err
}

// sameFolder refuses a new session that macOS or Windows would keep in
// the folder of a local one (sessionIds equal ignoring case), or a second
// session of one branch.
func sameFolder(reg *registry.Registry, s registry.Session) error {
	if other := reg.ForBranch(s.GitBranch); other != nil {
		return fmt.Errorf("branch %q already has session %q here; nothing of it was imported", s.GitBranch, other.SessionID)
	}
	if other := reg.SameFolder(s.SessionID); other != nil {
		return fmt.Errorf("session %q of branch %q would share one folder with session %q of branch %q on macOS and Windows, which ignore case; nothing of it was imported", s.SessionID, s.GitBranch, other.SessionID, other.GitBranch)
	}
	return nil
}

// importInto stages the replacement of one session by a remote commit: its
// entry, every file of the commit, the removal of the local files the
// commit does not have, and the sync log line.
func importInto(tx *state.Tx, j *importJob, now gitx.Snapshot) {
	id := j.ss.id
	if cur := findID(tx.Reg, id); cur != nil {
		*cur = j.entry
	} else {
		tx.Reg.Sessions = append(tx.Reg.Sessions, j.entry)
	}
	tx.RegistryChanged()
	for name, b := range j.ss.remoteTree {
		if rel, ok := strings.CutPrefix(name, "files/"); ok {
			tx.Write(id, filepath.FromSlash(rel), b.Data)
		}
	}
	for name := range now {
		if _, kept := j.ss.remoteTree[name]; kept {
			continue
		}
		if rel, ok := strings.CutPrefix(name, "files/"); ok {
			tx.RemoveFile(filepath.Join(id, "files", filepath.FromSlash(rel)))
		}
	}
	line, _ := json.Marshal(j.log)
	tx.AppendState(LogFile, append(line, '\n'))
}

// PulledFrom reports whether the sync log records an import or resolution
// of session id on this machine, and from which remote (its tracking name:
// a remote name, or url-<hex> for a path or URL), the latest one's.
func PulledFrom(d *state.Dir, id string) (remote string, ok bool) {
	data, err := d.ReadStateFile(LogFile)
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(data), "\n") {
		var l logLine
		if json.Unmarshal([]byte(line), &l) == nil && l.Session == id {
			remote, ok = l.Remote, true
		}
	}
	return remote, ok
}
