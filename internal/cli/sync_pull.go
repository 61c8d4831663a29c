package cli

// SyncPullCmd is `sync pull`.
type SyncPullCmd struct {
	RemoteFlag
	Key string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session the remote has)."`
}

// Run imports each remote session this machine is behind on.
func (c *SyncPullCmd) Run(e *Env) error {
	s, err := e.syncer(c.Remote)
	if err != nil {
		return err
	}
	key, err := e.syncKey(s, c.Key)
	if err != nil {
		return err
	}
	results, warnings, err := s.Pull(key)
	if err != nil {
		return err
	}
	return e.syncReport("pull", c.Remote, results, warnings)
}
