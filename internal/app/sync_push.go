package app

import "github.com/orc-state/orc-state/internal/fault"

// SyncPush publishes to remote each session of the registry on its own
// (or only key's, found by the selector rules of every session verb), and
// returns what sync push prints of the results; the error is one that
// stopped it before any result (no sessions to push is exit 1).
func SyncPush(txn *Txn, remote, key string) (SyncReport, error) {
	s, err := txn.Syncer(remote)
	if err != nil {
		return SyncReport{}, err
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return SyncReport{}, err
	}
	var ids []string
	if key != "" {
		ss, err := txn.where.FindKey(reg, key) // the selector rules of every session verb
		if err != nil {
			return SyncReport{}, err
		}
		ids = []string{ss.SessionID}
	} else {
		for _, ss := range reg.Sessions {
			ids = append(ids, ss.SessionID)
		}
	}
	if len(ids) == 0 {
		return SyncReport{}, fault.NotFoundf("no sessions to push").WithHint("orc-state init registers one")
	}
	results, warnings, err := s.Push(ids)
	if err != nil {
		return SyncReport{}, err
	}
	return syncReportOf("push", remote, results, warnings), nil
}
