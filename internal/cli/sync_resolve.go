package cli

import "github.com/orc-state/orc-state/internal/app"

// SyncResolveCmd is `sync resolve`.
type SyncResolveCmd struct {
	RemoteFlag
	Keep  string `required:"" enum:"local,remote" help:"The side to keep: local or remote; the other is archived under refs/orc/archive/<sessionId>/<time>."`
	Force bool   `help:"With --keep local: discard the remote's changes since the common base (they are archived, and listed without --force)."`
	Key   string `arg:"" help:"The diverged session: branch or sessionId."`
}

// Run keeps one side of a diverged session (app.SyncResolve).
func (c *SyncResolveCmd) Run(o *app.Streams, txn *app.Txn) error {
	r, err := app.SyncResolve(txn, app.SyncResolveParams{Remote: c.Remote, Keep: c.Keep, Force: c.Force, Key: c.Key})
	if err != nil {
		return err
	}
	return syncReport(o, r)
}
