package app

import "github.com/orc-state/orc-state/internal/refsync"

// SyncResolveParams are sync resolve's: the remote, the side to keep
// (local or remote), whether to discard the remote's changes since the
// common base (with local), and the diverged session's key.
type SyncResolveParams struct {
	Remote string
	Keep   string
	Force  bool
	Key    string
}

// SyncResolve keeps one side of a diverged session (the other is
// archived), and returns what sync resolve prints of its result; the
// error is one that stopped it before any result.
func SyncResolve(txn *Txn, p SyncResolveParams) (SyncReport, error) {
	s, key, err := syncOn(txn, p.Remote, p.Key)
	if err != nil {
		return SyncReport{}, err
	}
	r, warnings, err := s.Resolve(key, p.Keep, p.Force)
	if err != nil {
		return SyncReport{}, err
	}
	return syncReportOf("resolve", p.Remote, []refsync.Result{r}, warnings), nil
}
