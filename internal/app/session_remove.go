package app

import (
	"path"
	"path/filepath"
	"strings"
)

// SessionRemoved is what `session remove` did: the session, the archive
// that keeps it and that archive's time, which session restore takes as
// Session@At; Archive is "" when nothing was removed.
type SessionRemoved struct {
	Session, Archive, At string
}

// SessionRemove removes one session, chosen by key (a branch or
// sessionId; "" for the run's --session or the current branch): entry,
// folder, tombstone, after keeping its entry and files in an archive
// (removal.Run.Remove; session restore brings them back). An in_progress
// or paused session is refused without force.
func SessionRemove(txn *Txn, key string, force bool) (SessionRemoved, error) {
	ch, err := txn.Where().Choose(key)
	if err != nil {
		return SessionRemoved{}, err
	}
	done, err := txn.Removal().Remove(ch, force)
	if err != nil || done.Archive == "" {
		return SessionRemoved{}, err
	}
	at := path.Base(strings.TrimSuffix(filepath.ToSlash(done.Archive), "/"))
	return SessionRemoved{Session: done.Session, Archive: done.Archive, At: at}, nil
}
