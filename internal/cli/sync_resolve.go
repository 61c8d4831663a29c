package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/selection"
)

// SyncResolveCmd is `sync resolve`.
type SyncResolveCmd struct {
	RemoteFlag
	Keep  string `required:"" enum:"local,remote" help:"The side to keep: local or remote; the other is archived under refs/orc/archive/<sessionId>/<time>."`
	Force bool   `help:"With --keep local: discard the remote's changes since the common base (they are archived, and listed without --force)."`
	Key   string `arg:"" help:"The diverged session: branch or sessionId."`
}

// Run keeps one side of a diverged session.
func (c *SyncResolveCmd) Run(o *app.Streams, where *selection.Where, txn *app.Txn) error {
	s, key, err := syncOn(txn, where, c.Remote, c.Key)
	if err != nil {
		return err
	}
	r, warnings, err := s.Resolve(key, c.Keep, c.Force)
	if err != nil {
		return err
	}
	return syncReport(o, "resolve", c.Remote, []refsync.Result{r}, warnings)
}
