package cli

import "github.com/orc-state/orc-state/internal/app"

// SyncPullCmd is `sync pull`.
type SyncPullCmd struct {
	RemoteFlag
	Key string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session the remote has)."`
}

// Run imports each remote session this machine is behind on (app.SyncPull).
func (c *SyncPullCmd) Run(o *app.Streams, txn *app.Txn) error {
	r, err := app.SyncPull(txn, c.Remote, c.Key)
	if err != nil {
		return err
	}
	return syncReport(o, r)
}
