// Package repair owns the fixes `orc-state repair` applies, each inside
// the caller's one transaction (a *state.Tx under the lock) and each
// journaled or tombstoned: the mirror and journal baseline (Fixes says
// which findings plain repair fixes), leftover temp files, adopting an
// orphan folder from its own checkpoint, checking an orphan before it is
// archived and removed, rebuilding an unreadable orc.json from the
// sessions' folders, and redacting credentials an older orc-state stored.
// It invents no data: what it cannot read back from the folders it
// refuses or skips, saying why. The CLI opens the transaction and prints
// what a fix reports; nothing here writes to stdout.
package repair

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// Run is what a fix records of the run that applies it.
type Run struct {
	Verb, Actor, Stamp string // a tombstone's verb, actor and at
}

// Tombstone is a line of removed.jsonl, by this run.
func (r Run) Tombstone(fields map[string]any) []byte {
	fields["at"], fields["actor"], fields["verb"] = r.Stamp, r.Actor, r.Verb
	b, _ := json.Marshal(fields)
	return append(b, '\n')
}

// Fixes reports whether plain repair fixes a finding: the mirror
// (regenerated from the registry) and the journal's baseline (a new line
// with the current digests acknowledges outside edits, a missing journal
// or anchor mismatch). A damaged chain is history and stays.
func Fixes(code string) bool {
	switch code {
	case "checkpoint.missing", "frontmatter.mismatch", checkpoint.CodeFrontmatterMissing,
		checkpoint.CodeFrontmatterInvalid, "journal.missing", "journal.anchor":
		return true
	}
	return strings.HasPrefix(code, "edited.")
}

// Temp deletes leftover temp files and returns them; under the lock no
// writer is between its temp file and its rename, so every one found is
// stale. A session's are journaled in it, others tombstoned.
func (r Run) Temp(tx *state.Tx) []string {
	removed := verify.TempFiles(tx.Dir().Path)
	perSession := map[string][]string{}
	for _, rel := range removed {
		tx.RemoveFile(rel)
		if id, _, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && tx.Reg.Exact(id) != nil {
			perSession[id] = append(perSession[id], rel)
		} else {
			tx.Tombstone(r.Tombstone(map[string]any{"tempFile": rel}))
		}
	}
	for id, files := range perSession {
		tx.Touch(id, map[string]any{"fix": "temp", "removed": files})
	}
	return removed
}

// Adoptable refuses a name no session can have, before the lock.
func Adoptable(name string) error {
	if err := registry.CheckKey(name); err != nil {
		return fault.Usagef("%q cannot be adopted: %v", name, err).
			WithHint("remove it with orc-state repair --remove-orphan=%s (archived first: orc-state session restore %s brings it back), or init the branch again", safetext.Quote(name), safetext.Operand(name))
	}
	return nil
}

// Adopt registers orphan folder name from its checkpoint's frontmatter
// (the start from its journal's first line) and returns the new entry.
func Adopt(tx *state.Tx, name string) (*registry.Session, error) {
	if err := CheckOrphan(tx.Dir(), tx.Reg, name); err != nil {
		return nil, err
	}
	data, err := tx.Read(name, state.CheckpointFile)
	if err != nil {
		return nil, err
	}
	doc := checkpoint.Parse(data)
	if data == nil || doc.Front == nil {
		return nil, fault.Usagef("%s has no checkpoint with valid frontmatter to adopt it from", name).
			WithHint("orc-state repair --remove-orphan=%s (archived first: orc-state session restore %s brings it back), or init the branch again", safetext.Quote(name), safetext.Operand(name))
	}
	fm := doc.Front
	phase, err := registry.ParsePhase(fm.Phase)
	if err != nil {
		return nil, fault.Usagef("%s: %v", name, err)
	}
	started := fm.UpdatedAt
	if entries, _, _ := journal.Read(tx.Dir().File(name, journal.FileName)); len(entries) > 0 {
		started = entries[0].At
	}
	s := registry.Session{SessionID: name, Branch: name, GitBranch: fm.GitBranch, Command: fm.Command,
		Status: fm.Status, Phase: phase, PhaseLabel: registry.Str(fm.PhaseLabel), TotalPhases: fm.TotalPhases,
		JiraTicket: registry.Str(fm.JiraTicket), LinkedPRs: []registry.PR{}, StartedAt: started, UpdatedAt: fm.UpdatedAt}
	if fm.Branch != name {
		return nil, fault.Usagef("%s's checkpoint names branch %q; refusing to adopt it under another key", name, fm.Branch)
	}
	if err := s.Validate(); err != nil {
		return nil, fault.Usagef("cannot adopt %s: %v", name, err)
	}
	if err := verify.Addable(tx, &s); err != nil {
		return nil, err
	}
	tx.Reg.Sessions = append(tx.Reg.Sessions, s)
	tx.RegistryChanged()
	tx.Replace(name) // the adopted entry is new; there is no earlier one to compare
	tx.Touch(name, map[string]string{"fix": "adopt", "from": "checkpoint frontmatter"})
	return &tx.Reg.Sessions[len(tx.Reg.Sessions)-1], nil
}

// OrphanName reports whether name can be an orphan folder: one plain
// component of the state dir (not hidden, not a per-repository name). A
// folder planted under any such name can be removed; only one named like
// a key (registry.CheckKey) can be adopted.
func OrphanName(name string) bool {
	return archive.OrphanNameProblem(name) == "" && !verify.PerRepo[name]
}

// CheckOrphan refuses anything but a session-shaped folder without entry.
func CheckOrphan(d *state.Dir, reg *registry.Registry, name string) error {
	if !OrphanName(name) {
		return fault.Usagef("%q is not a session folder", name)
	}
	if selection.IsLinkFolder(d, name) {
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

// Untracked refuses removing orphan name (an OrphanName) when git tracks
// files under it, or cannot say; it asks git, so it runs before the lock.
func Untracked(d *state.Dir, name string) error {
	tracked, err := verify.GitTracks(d, name)
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot tell whether git tracks %s; refusing to remove it", name).
			WithHint("run git status to see why git cannot answer")
	}
	if tracked {
		return fault.Usagef("git tracks files under %s; refusing to remove them", name).
			WithHint("orc-state never removes what git tracks; if it should go, remove it with git rm")
	}
	return nil
}

// OrphanItems is what removing orphan name keeps first (archived before
// the lock): its folder as one item, none when it is empty; it checks the
// orphan as CheckOrphan does, and the caller checks again under the lock.
func (r Run) OrphanItems(d *state.Dir, name string) ([]*archive.Item, error) {
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	if err := CheckOrphan(d, reg, name); err != nil {
		return nil, err
	}
	snap, err := archive.ReadFolder(d, name)
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read %s to archive it", name).WithHint("run orc-state doctor")
	}
	if len(snap) == 0 {
		return nil, nil // an empty orphan: nothing to keep
	}
	return []*archive.Item{archive.NewItem(name, archive.KindOrphan, r.Verb, r.Actor, r.Stamp, snap)}, nil
}

// RemoveOrphan removes orphan folder name inside tx with a tombstone,
// checked again under the lock; keep keeps what the folder holds now
// (unless it is empty) and names the archive, which the tombstone records
// and RemoveOrphan returns ("" when nothing was kept).
func (r Run) RemoveOrphan(tx *state.Tx, name string, keep func(now archive.Snapshot) (string, error)) (string, error) {
	if err := CheckOrphan(tx.Dir(), tx.Reg, name); err != nil {
		return "", err
	}
	now, err := archive.ReadFolder(tx.Dir(), name)
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read %s", name).WithHint("run orc-state doctor")
	}
	fields := map[string]any{"orphanFolder": name}
	kept := ""
	if len(now) > 0 {
		if kept, err = keep(now); err != nil {
			return "", err
		}
		fields["archive"] = kept
	}
	tx.RemoveFolder(name)
	tx.Tombstone(r.Tombstone(fields))
	return kept, nil
}
