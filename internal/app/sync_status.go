package app

import "github.com/orc-state/orc-state/internal/refsync"

// SyncStatus compares each session here or on remote (or only key's) with
// remote, fetching first unless noFetch, and returns sync status's rows:
// each session's state, then the archives (refsync.Syncer.Status). It
// writes nothing under the state dir.
func SyncStatus(txn *Txn, remote, key string, noFetch bool) ([]refsync.Row, error) {
	s, key, err := syncOn(txn, remote, key)
	if err != nil {
		return nil, err
	}
	s.NoFetch = noFetch
	return s.Status(key)
}
