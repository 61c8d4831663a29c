package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
)

// SyncPushCmd is `sync push`.
type SyncPushCmd struct {
	RemoteFlag
	Key string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session of the registry)."`
}

// Run publishes each selected session on its own.
func (c *SyncPushCmd) Run(o *app.Streams, where *selection.Where, txn *app.Txn) error {
	s, err := txn.Syncer(c.Remote)
	if err != nil {
		return err
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return err
	}
	var ids []string
	if c.Key != "" {
		ss, err := where.FindKey(reg, c.Key) // the selector rules of every session verb
		if err != nil {
			return err
		}
		ids = []string{ss.SessionID}
	} else {
		for _, ss := range reg.Sessions {
			ids = append(ids, ss.SessionID)
		}
	}
	if len(ids) == 0 {
		return fault.NotFoundf("no sessions to push").WithHint("orc-state init registers one")
	}
	results, warnings, err := s.Push(ids)
	if err != nil {
		return err
	}
	return syncReport(o, "push", c.Remote, results, warnings)
}
