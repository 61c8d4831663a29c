package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// RepairCmd is `repair`.
type RepairCmd struct {
	BranchFlag
	Temp          bool   `help:"Remove temp files left by interrupted writes." xor:"fix"`
	Adopt         string `help:"Register an orphan folder from its checkpoint frontmatter." placeholder:"NAME" xor:"fix"`
	RemoveOrphan  string `name:"remove-orphan" help:"Remove an orphan folder (tombstone in removed.jsonl)." placeholder:"NAME" xor:"fix"`
	Redact        bool   `help:"Remove credentials an older orc-state stored in the session's entry, files or journal (rewrites them with a marker and re-chains the journal)." xor:"fix"`
	RedactRemoved bool   `name:"redact-removed" help:"Remove credentials an older orc-state stored in removed.jsonl (rewrites those lines with a marker)." xor:"fix"`
	Rebuild       bool   `name:"rebuild-registry" help:"Rebuild an unreadable orc.json from each session's checkpoint frontmatter and journal (the damaged file kept aside in the state dir)." xor:"fix"`
}

// Run applies the fixes doctor names, each journaled, and invents no data:
// the mirror is regenerated from the registry; an orphan is adopted only
// from its own valid checkpoint frontmatter.
//
// An interrupted transaction comes first: when one is recorded, repair
// completes it (the state becomes exactly what the interrupted verb would
// have written). Plain repair stops there (run it again for the session's
// own fixes); --temp, --adopt and --remove-orphan go on with their fix.
func (c *RepairCmd) Run(e *Env) error {
	completed, err := e.finishInterrupted()
	if err != nil {
		return err
	}
	switch {
	case c.Temp:
		return c.removeTemp(e)
	case c.Adopt != "":
		return c.adopt(e)
	case c.RemoveOrphan != "":
		return c.removeOrphan(e)
	case c.Redact:
		return c.redact(e)
	case c.RedactRemoved:
		return c.redactRemoved(e)
	case c.Rebuild:
		return c.rebuildRegistry(e)
	}
	if completed {
		return nil
	}
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		findings, err := verify.Session(tx.Dir(), tx.Reg, s, e.now())
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(findings, func(f verify.Finding) bool { return repairs(f.Code) }) {
			fmt.Fprintf(e.Stdout, "nothing to repair in %s\n", safetext.Escape(s.SessionID))
			if len(verify.StoredSecrets(tx.Dir(), s)) > 0 {
				fmt.Fprintln(e.Stdout, safetext.Escape("it holds a stored credential: orc-state repair --redact --session="+safetext.Quote(s.SessionID)+" removes it"))
			}
			return nil // and nothing written
		}
		if err := tx.Mirror(s); err != nil {
			return err
		}
		tx.Touch(s.SessionID, map[string]string{"fix": "mirror"})
		fmt.Fprintf(e.Stdout, "repaired %s: checkpoint mirror regenerated, journal re-baselined\n", safetext.Escape(s.SessionID))
		return nil
	})
}

// repairs reports whether plain repair fixes a finding: the mirror
// (regenerated from the registry) and the journal's baseline (a new line
// with the current digests acknowledges outside edits, a missing journal
// or anchor mismatch). A damaged chain is history and stays.
func repairs(code string) bool {
	switch code {
	case "checkpoint.missing", "frontmatter.mismatch", checkpoint.CodeFrontmatterMissing,
		checkpoint.CodeFrontmatterInvalid, "journal.missing", "journal.anchor":
		return true
	}
	return strings.HasPrefix(code, "edited.")
}

// finishInterrupted completes an interrupted transaction, if one is
// recorded, and says so.
func (e *Env) finishInterrupted() (bool, error) {
	d, err := e.Dir()
	if err != nil {
		return false, err
	}
	if err := e.checkActor(); err != nil {
		return false, err
	}
	in, err := d.Finish(ctxBackground(), state.Options{Verb: e.Verb, Actor: e.Actor(), LockTimeout: e.G.LockTimeout})
	if err != nil || in == nil {
		return false, err
	}
	if in.Torn {
		fmt.Fprintf(e.Stdout, "removed the record of %s\n", safetext.Escape(in.Describe()))
	} else {
		fmt.Fprintf(e.Stdout, "completed the interrupted %s\n", safetext.Escape(in.Describe()))
	}
	return true, nil
}

// removeTemp deletes leftover temp files; under the lock no writer is
// between its temp file and its rename, so every one found is stale.
func (c *RepairCmd) removeTemp(e *Env) error {
	var removed []string
	err := e.Update(func(tx *state.Tx) error {
		removed = verify.TempFiles(tx.Dir().Path)
		perSession := map[string][]string{}
		for _, rel := range removed {
			tx.RemoveFile(rel)
			if id, _, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && tx.Reg.Exact(id) != nil {
				perSession[id] = append(perSession[id], rel)
			} else {
				tx.Tombstone(e.tombstone(map[string]any{"tempFile": rel}))
			}
		}
		for id, files := range perSession {
			tx.Touch(id, map[string]any{"fix": "temp", "removed": files})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range removed {
		fmt.Fprintf(e.Stdout, "removed %s\n", safetext.Escape(r))
	}
	return nil
}

// adopt registers an orphan folder from its checkpoint's frontmatter.
func (c *RepairCmd) adopt(e *Env) error {
	name := c.Adopt
	if err := registry.CheckKey(name); err != nil {
		return fault.Usagef("%q cannot be adopted: %v", name, err).
			WithHint("remove it with orc-state repair --remove-orphan=%s (archived first: orc-state session restore %s brings it back), or init the branch again", safetext.Quote(name), safetext.Operand(name))
	}
	return e.Update(func(tx *state.Tx) error {
		if err := orphanCheck(tx.Dir(), tx.Reg, name); err != nil {
			return err
		}
		data, err := tx.Read(name, state.CheckpointFile)
		if err != nil {
			return err
		}
		doc := checkpoint.Parse(data)
		if data == nil || doc.Front == nil {
			return fault.Usagef("%s has no checkpoint with valid frontmatter to adopt it from", name).
				WithHint("orc-state repair --remove-orphan=%s (archived first: orc-state session restore %s brings it back), or init the branch again", safetext.Quote(name), safetext.Operand(name))
		}
		fm := doc.Front
		phase, err := registry.ParsePhase(fm.Phase)
		if err != nil {
			return fault.Usagef("%s: %v", name, err)
		}
		started := fm.UpdatedAt
		if entries, _, _ := journal.Read(tx.Dir().File(name, journal.FileName)); len(entries) > 0 {
			started = entries[0].At
		}
		s := registry.Session{SessionID: name, Branch: name, GitBranch: fm.GitBranch, Command: fm.Command,
			Status: fm.Status, Phase: phase, PhaseLabel: registry.Str(fm.PhaseLabel), TotalPhases: fm.TotalPhases,
			JiraTicket: registry.Str(fm.JiraTicket), LinkedPRs: []registry.PR{}, StartedAt: started, UpdatedAt: fm.UpdatedAt}
		if fm.Branch != name {
			return fault.Usagef("%s's checkpoint names branch %q; refusing to adopt it under another key", name, fm.Branch)
		}
		if err := s.Validate(); err != nil {
			return fault.Usagef("cannot adopt %s: %v", name, err)
		}
		if err := keyTaken(tx, &s); err != nil {
			return err
		}
		tx.Reg.Sessions = append(tx.Reg.Sessions, s)
		tx.RegistryChanged()
		tx.Replace(name) // the adopted entry is new; there is no earlier one to compare
		tx.Touch(name, map[string]string{"fix": "adopt", "from": "checkpoint frontmatter"})
		fmt.Fprintf(e.Stdout, "adopted %s (branch %s) from its checkpoint\n", safetext.Escape(name), safetext.Escape(fm.GitBranch))
		return nil
	})
}

// removeOrphan deletes a session folder no entry owns, with a tombstone;
// git is asked first (never under the lock) whether it tracks the folder.
func (c *RepairCmd) removeOrphan(e *Env) error {
	name := c.RemoveOrphan
	if orphanName(name) {
		d, err := e.Dir()
		if err != nil {
			return err
		}
		tracked, err := verify.GitTracks(d, name)
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot tell whether git tracks %s; refusing to remove it", name).
				WithHint("run git status to see why git cannot answer")
		}
		if tracked {
			return fault.Usagef("git tracks files under %s; refusing to remove them", name).
				WithHint("orc-state never removes what git tracks; if it should go, remove it with git rm")
		}
	}
	return e.archived(nil, func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return nil, err
		}
		if err := orphanCheck(d, reg, name); err != nil {
			return nil, err // and again under the lock
		}
		snap, err := archive.ReadFolder(d, name)
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read %s to archive it", name).WithHint("run orc-state doctor")
		}
		if len(snap) == 0 {
			return nil, nil // an empty orphan: nothing to keep
		}
		return []*archive.Item{archive.NewItem(name, archive.KindOrphan, e.Verb, e.Actor(), e.stamp(), snap)}, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		if err := orphanCheck(tx.Dir(), tx.Reg, name); err != nil {
			return err
		}
		now, err := archive.ReadFolder(tx.Dir(), name)
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot read %s", name).WithHint("run orc-state doctor")
		}
		fields := map[string]any{"orphanFolder": name}
		kept := ""
		if len(now) > 0 {
			var it *archive.Item
			if len(items) > 0 {
				it = items[0]
			}
			if kept, err = keepCurrent(tx, store, it, name, archive.KindOrphan, e.Verb, e.Actor(), now); err != nil {
				return err
			}
			fields["archive"] = kept
		}
		tx.RemoveFolder(name)
		tx.Tombstone(e.tombstone(fields))
		fmt.Fprintf(e.Stdout, "removed orphan folder %s\n", safetext.Escape(name))
		if kept != "" {
			fmt.Fprintf(e.Stderr, "archived as %s: orc-state session restore %s brings it back\n",
				safetext.Escape(kept), safetext.Operand(name+"@"+path.Base(kept)))
		}
		return nil
	})
}

// orphanName reports whether name can be an orphan folder: one plain
// component of the state dir (not hidden, not a per-repository name). A
// folder planted under any such name can be removed; only one named like
// a key (registry.CheckKey) can be adopted.
func orphanName(name string) bool {
	return archive.OrphanNameProblem(name) == "" && !verify.PerRepo[name]
}

// orphanCheck refuses anything but a session-shaped folder without entry.
func orphanCheck(d *state.Dir, reg *registry.Registry, name string) error {
	if !orphanName(name) {
		return fault.Usagef("%q is not a session folder", name)
	}
	if isLinkFolder(d, name) {
		return fault.Usagef("%s holds a workspace link, not an orphan session", name)
	}
	if reg.Exact(name) != nil {
		return fault.Usagef("%s has a registry entry; it is not an orphan", name)
	}
	st, err := os.Lstat(filepath.Join(d.Path, name))
	if err != nil || !st.IsDir() {
		return fault.NotFoundf("no folder %s in %s", name, d.Path)
	}
	if !verify.SessionShaped(d, name) && !verify.EmptySession(d, name) {
		return fault.Usagef("%s is not a session folder (no files/ folder with a checkpoint.md or journal.jsonl, nor an empty one); orc-state leaves it alone", name).
			WithHint("if it is not yours, remove it by hand")
	}
	return nil
}

// tombstone is a line of removed.jsonl, by this run.
func (e *Env) tombstone(fields map[string]any) []byte {
	fields["at"], fields["actor"], fields["verb"] = e.stamp(), e.Actor(), e.Verb
	b, _ := json.Marshal(fields)
	return append(b, '\n')
}
