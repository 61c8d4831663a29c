package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	stdslices "slices"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/strictjson"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SyncPullCmd is `sync pull`.
type SyncPullCmd struct {
	Remote string `default:"origin" help:"The git remote."`
	Key    string `arg:"" optional:"" help:"One session (default: all the remote has)."`
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
		if c.Key != "" && !stdslices.Contains(branchKeys(c.Key), id) {
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
