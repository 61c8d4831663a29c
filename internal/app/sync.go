package app

// What the sync verbs share: the refsync.Syncer they drive, the session a
// key names, and their per-session results as the verb prints them.

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/refsync"
)

// SyncReport is what a sync verb prints of its results: one line per
// session on stdout (Lines, each followed by its indented lines), each
// warning or note on stderr (Notes), and the verb's error for the results
// (Err, its exit code; nil when every session is done).
type SyncReport struct {
	Lines []string
	Notes []string
	Err   error
}

// syncReportOf is the report of verb's results against remote, with its
// warnings or notes (refsync.Summary gives its error).
func syncReportOf(verb, remote string, results []refsync.Result, notes []string) SyncReport {
	var lines []string
	for _, r := range results {
		lines = append(lines, r.Line())
		lines = append(lines, r.Extra...)
	}
	return SyncReport{Lines: lines, Notes: notes, Err: refsync.Summary(verb, remote, results)}
}

// syncOn is the syncer of remote, and the session a sync verb's key names
// by the selector rules of every session verb (a branch selects only its
// own session; a sanitized match of another branch's session is refused):
// its sessionId when the registry has it, else the key itself, which
// refsync matches against the remote's sessions; "" for every session.
func syncOn(txn *Txn, remote, key string) (*refsync.Syncer, string, error) {
	s, err := txn.Syncer(remote)
	if err != nil || key == "" {
		return s, "", err
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return nil, "", err
	}
	ss, err := txn.where.FindKey(reg, key)
	switch {
	case err == nil:
		return s, ss.SessionID, nil
	case fault.Code(err) == fault.NotFound:
		return s, key, nil
	}
	return nil, "", err
}
