package cli

import "github.com/orc-state/orc-state/internal/app"

// SyncRestoreCmd is `sync restore`.
type SyncRestoreCmd struct {
	RemoteFlag
	Force bool   `help:"Discard what the session holds now and the archive lacks (it is archived, and listed without --force)."`
	Ref   string `arg:"" help:"The archive to take back: refs/orc/archive/<sessionId>/<time> (sync status lists them)."`
}

// Run makes an archived side the session's state again, as a local change
// the next push publishes (app.SyncRestore).
func (c *SyncRestoreCmd) Run(o *app.Streams, txn *app.Txn) error {
	r, err := app.SyncRestore(txn, c.Remote, c.Ref, c.Force)
	if err != nil {
		return err
	}
	return syncReport(o, r)
}
