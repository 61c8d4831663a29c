package app

import (
	"time"

	"github.com/orc-state/orc-state/internal/removal"
)

// ArchiveSweep is what `cleanup --archives` found: a row an archive,
// never nil (JSON's [] when there is none).
type ArchiveSweep struct {
	Rows []removal.ArchiveRow
}

// CleanupArchives sweeps archives (removal.Run.SweepArchives): those made
// before now minus minAge, of the sessions keys names (else all), deleted
// only when remove is set. It returns a row each, saying what became of it.
func CleanupArchives(txn *Txn, keys []string, minAge time.Duration, remove bool) (ArchiveSweep, error) {
	rows, err := txn.Removal().SweepArchives(keys, minAge, remove)
	if err != nil {
		return ArchiveSweep{}, err
	}
	if rows == nil {
		rows = []removal.ArchiveRow{}
	}
	return ArchiveSweep{Rows: rows}, nil
}

// Text is the sweep as cleanup --archives prints it (removal.SweepText).
func (s ArchiveSweep) Text() string { return removal.SweepText(s.Rows) }
