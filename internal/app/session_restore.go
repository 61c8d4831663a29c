package app

import (
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SessionRestored is what `session restore` did: the session (or orphan
// folder) it brought back, the archive it took and, a line each, what
// became of the bindings it held.
type SessionRestored struct {
	ID, Archive string
	Notes       []string
}

// SessionRestore brings a removed session back from its archive, byte for
// byte (removal.Run.Restore). arg is the sessionId (or orphan folder),
// optionally @TIME (archive.SplitArg); without a time its newest archive.
// It is refused (exit 2, nothing written) for an arg that names no
// session, and while a session holds that key, that branch or that folder.
func SessionRestore(txn *Txn, arg string) (SessionRestored, error) {
	id, at := archive.SplitArg(arg)
	if p := archive.OrphanNameProblem(id); p != "" {
		return SessionRestored{}, fault.Usagef("%s names no session: %s", safetext.Escape(arg), p).WithHint("orc-state archive list shows the archives and their times")
	}
	done, err := txn.Removal().Restore(id, at)
	if err != nil {
		return SessionRestored{}, err
	}
	return SessionRestored{ID: id, Archive: done.Archive, Notes: done.Notes}, nil
}
