package app

import "github.com/orc-state/orc-state/internal/refsync"

// SyncRestore makes the archived side ref (refs/orc/archive/<sessionId>/<time>)
// its session's state again, as a local change the next push to remote
// publishes (with force, discarding what the session holds now and the
// archive lacks), and returns what sync restore prints of its result; the error is one that
// stopped it before any result.
func SyncRestore(txn *Txn, remote, ref string, force bool) (SyncReport, error) {
	s, err := txn.Syncer(remote)
	if err != nil {
		return SyncReport{}, err
	}
	r, notes, err := s.Restore(ref, force)
	if err != nil {
		return SyncReport{}, err
	}
	return syncReportOf("restore", remote, []refsync.Result{r}, notes), nil
}
