package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// archiveRow is one line of an archive sweep.
type archiveRow struct {
	Action string `json:"action"` // would delete, deleted
	archive.Archive
}

// sweepArchives is `cleanup --archives --older-than DUR [ID...]`: the
// archives made before now minus DUR, of the sessions named (else all).
// It lists them and stops there unless --force; with --force it records
// each in removed.jsonl (its commit, in a repository, so git keeps a way
// back until it prunes the objects) and deletes them. Nothing else deletes
// an archive.
func (c *CleanupCmd) sweepArchives(e *Env) error {
	switch {
	case c.AllCompleted || c.Gone || c.Merged || c.Into != "":
		return fault.Usagef("--archives sweeps archives, not sessions").WithHint("run the two sweeps separately")
	case c.OlderThan == "":
		return fault.Usagef("--archives needs --older-than DUR").WithHint("orc-state cleanup --archives --older-than 30d lists the archives older than 30 days (0d: every one)")
	}
	minAge, err := parseAge(c.OlderThan)
	if err != nil {
		return fault.Usagef("--older-than %q: %v", c.OlderThan, err).WithHint("use a duration like 720h or 30d")
	}
	d, err := e.Dir()
	if err != nil {
		return err
	}
	store := archive.Open(d)
	all, err := store.List("")
	if err == nil {
		err = store.CheckAll(all) // an archive no restore would take is named invalid, and goes with 0d
	}
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot list the archives")
	}
	ids := map[string]bool{}
	for _, k := range c.Keys {
		ids[k] = true
	}
	cutoff := e.now().Add(-minAge)
	var rows []archiveRow
	var chosen []archive.Archive
	for _, a := range all {
		if len(ids) > 0 && !ids[a.Session] {
			continue
		}
		if at, err := time.Parse(time.RFC3339, a.At); err != nil && (a.Invalid == "" || minAge != 0) || err == nil && at.After(cutoff) {
			continue // made within the window, or of no known time and not invalid: kept (an invalid one of no known time goes with 0d)
		}
		rows = append(rows, archiveRow{Action: "would delete", Archive: a})
		chosen = append(chosen, a)
	}
	if c.Force && !c.DryRun && len(chosen) > 0 {
		err := e.Update(func(tx *state.Tx) error {
			for _, a := range chosen {
				fields := map[string]any{"archiveDeleted": a.Name, "session": a.Session, "kind": a.Kind}
				if a.Commit != "" {
					fields["commit"] = a.Commit // git keeps the objects until it prunes them
				}
				tx.Tombstone(e.tombstone(fields))
			}
			store.StageDelete(tx, chosen)
			return nil
		})
		if err != nil {
			return err
		}
		if err := store.DeleteRefs(chosen); err != nil {
			return fault.Wrap(fault.Invalid, err, "the deletion is recorded in %s, but git did not delete the refs", state.RemovedFile).
				WithHint("run it again")
		}
		for i := range rows {
			rows[i].Action = "deleted"
		}
	}
	if c.JSON {
		if rows == nil {
			rows = []archiveRow{}
		}
		return printJSON(e, map[string]any{"dryRun": !c.Force || c.DryRun, "archives": rows}, "  ")
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%d", r.Action, safetext.Escape(r.Name), safetext.Escape(r.Session), safetext.Escape(r.Kind), safetext.Escape(r.At), r.Size)
		if r.Invalid != "" {
			fmt.Fprintf(&b, "\tinvalid: %s", safetext.Escape(r.Invalid))
		}
		b.WriteByte('\n')
	}
	if _, err := fmt.Fprint(e.Stdout, b.String()); err != nil {
		return err
	}
	if len(rows) > 0 && (!c.Force || c.DryRun) {
		fmt.Fprintf(e.Stderr, "%d archive(s) listed, nothing deleted; add --force to delete them for good\n", len(rows))
	}
	return nil
}
