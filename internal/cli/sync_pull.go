package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/selection"
)

// SyncPullCmd is `sync pull`.
type SyncPullCmd struct {
	RemoteFlag
	Key string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session the remote has)."`
}

// Run imports each remote session this machine is behind on.
func (c *SyncPullCmd) Run(o *app.Streams, where *selection.Where, txn *app.Txn) error {
	s, key, err := syncOn(txn, where, c.Remote, c.Key)
	if err != nil {
		return err
	}
	results, warnings, err := s.Pull(key)
	if err != nil {
		return err
	}
	return syncReport(o, "pull", c.Remote, results, warnings)
}
