package removal

import (
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// List is the archives of session (every one for ""), oldest first per
// session, each validated whole as a restore would (archive.Store.CheckAll):
// one no restore would take carries why in Invalid. A read: no lock.
func (r Run) List(session string) ([]archive.Archive, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, err
	}
	all, err := checked(archive.Open(d), session)
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot list the archives").WithHint("run git status to see why git cannot answer")
	}
	return all, nil
}

// checked lists the archives of session and validates each whole.
func checked(store *archive.Store, session string) ([]archive.Archive, error) {
	all, err := store.List(session)
	if err == nil {
		err = store.CheckAll(all)
	}
	return all, err
}

// ListText is archive list's table: a line an archive, with its header
// line first when header is set; an invalid one says why last.
func ListText(all []archive.Archive, header bool) string {
	var b strings.Builder
	if header {
		b.WriteString(strings.Join([]string{"session", "time", "kind", "verb", "at", "files", "size", "where"}, "\t") + "\n")
	}
	for _, a := range all {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%d files\t%d bytes\t%s", safetext.Escape(a.Session), safetext.Escape(a.Time), safetext.Escape(a.Kind),
			safetext.Escape(a.Verb), safetext.Escape(a.At), a.Files, a.Size, safetext.Escape(a.Name))
		if a.Invalid != "" {
			fmt.Fprintf(&b, "\tinvalid: %s", safetext.Escape(a.Invalid))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ArchiveRow is one line of an archive sweep.
type ArchiveRow struct {
	Action string `json:"action"` // would delete, deleted
	archive.Archive
}

// SweepArchives is cleanup --archives: the archives made before now minus
// minAge, of the sessions in ids (else all). An archive of no known time
// is kept, unless it is invalid and minAge is 0. With remove it records
// each in removed.jsonl (its commit, in a repository, so git keeps a way
// back until it prunes the objects) and deletes them; otherwise it only
// lists them. Nothing else deletes an archive.
func (r Run) SweepArchives(ids []string, minAge time.Duration, remove bool) ([]ArchiveRow, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, err
	}
	store := archive.Open(d)
	all, err := checked(store, "") // one no restore would take is named invalid, and goes with 0d
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot list the archives")
	}
	named := map[string]bool{}
	for _, k := range ids {
		named[k] = true
	}
	cutoff := r.Now().Add(-minAge)
	var rows []ArchiveRow
	var chosen []archive.Archive
	for _, a := range all {
		if len(named) > 0 && !named[a.Session] {
			continue
		}
		if at, err := time.Parse(time.RFC3339, a.At); err != nil && (a.Invalid == "" || minAge != 0) || err == nil && at.After(cutoff) {
			continue // made within the window, or of no known time and not invalid: kept
		}
		rows = append(rows, ArchiveRow{Action: "would delete", Archive: a})
		chosen = append(chosen, a)
	}
	if !remove || len(chosen) == 0 {
		return rows, nil
	}
	err = r.Update(d, state.Options{}, func(tx *state.Tx) error {
		for _, a := range chosen {
			fields := map[string]any{"archiveDeleted": a.Name, "session": a.Session, "kind": a.Kind}
			if a.Commit != "" {
				fields["commit"] = a.Commit // git keeps the objects until it prunes them
			}
			tx.Tombstone(r.tombstone(fields))
		}
		store.StageDelete(tx, chosen)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := store.DeleteRefs(chosen); err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "the deletion is recorded in %s, but git did not delete the refs", state.RemovedFile).
			WithHint("run it again")
	}
	for i := range rows {
		rows[i].Action = "deleted"
	}
	return rows, nil
}

// SweepText is an archive sweep as cleanup --archives prints it.
func SweepText(rows []ArchiveRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%d", r.Action, safetext.Escape(r.Name), safetext.Escape(r.Session), safetext.Escape(r.Kind), safetext.Escape(r.At), r.Size)
		if r.Invalid != "" {
			fmt.Fprintf(&b, "\tinvalid: %s", safetext.Escape(r.Invalid))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
