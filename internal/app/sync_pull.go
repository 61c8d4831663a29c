package app

// SyncPull imports each session of remote this machine is behind on (all
// of them, or only key's: a session, branch or sessionId), and returns
// what sync pull prints of the results; the error is one that stopped it
// before any result.
func SyncPull(txn *Txn, remote, key string) (SyncReport, error) {
	s, key, err := syncOn(txn, remote, key)
	if err != nil {
		return SyncReport{}, err
	}
	results, warnings, err := s.Pull(key)
	if err != nil {
		return SyncReport{}, err
	}
	return syncReportOf("pull", remote, results, warnings), nil
}
