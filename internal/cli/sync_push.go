package cli

import "github.com/orc-state/orc-state/internal/app"

// SyncPushCmd is `sync push`.
type SyncPushCmd struct {
	RemoteFlag
	Key string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session of the registry)."`
}

// Run publishes each selected session on its own (app.SyncPush).
func (c *SyncPushCmd) Run(o *app.Streams, txn *app.Txn) error {
	r, err := app.SyncPush(txn, c.Remote, c.Key)
	if err != nil {
		return err
	}
	return syncReport(o, r)
}
