package app

import (
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/removal"
)

// ArchiveListing is what `archive list` prints: the archives, oldest first
// per session, never nil (JSON's [] when there is none).
type ArchiveListing struct {
	Archives []archive.Archive
}

// ArchiveList lists the archives (removal.Run.List), of one session (or
// orphan folder name) when session is given, else all: what each holds,
// when and by which verb it was made, its size, and, for one no restore
// would take (its metadata or its content fails archive.Check), why. A
// read: no lock, nothing written.
func ArchiveList(txn *Txn, session string) (ArchiveListing, error) {
	all, err := txn.Removal().List(session)
	if err != nil {
		return ArchiveListing{}, err
	}
	if all == nil {
		all = []archive.Archive{}
	}
	return ArchiveListing{Archives: all}, nil
}

// Text is the listing as archive list's table (removal.ListText), its
// header line first when header is set.
func (l ArchiveListing) Text(header bool) string { return removal.ListText(l.Archives, header) }
