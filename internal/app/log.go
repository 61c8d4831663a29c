package app

import "github.com/orc-state/orc-state/internal/journal"

// LogShown is the journal of a session as log prints it: its entries in
// order, and the problems found reading it (a torn or unparseable line, a
// broken chain), each a warning.
type LogShown struct {
	Entries  []journal.Entry
	Problems []journal.Problem
}

// Log reads the journal of the session key names (a branch or a
// sessionId; the current branch when "") without the lock (journal.Read).
func Log(txn *Txn, key string) (LogShown, error) {
	d, _, s, err := txn.Where().Session(key)
	if err != nil {
		return LogShown{}, err
	}
	entries, problems, err := journal.Read(d.File(s.SessionID, journal.FileName))
	if err != nil {
		return LogShown{}, err
	}
	return LogShown{Entries: entries, Problems: problems}, nil
}
