package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
)

// SyncStatusCmd is `sync status`.
type SyncStatusCmd struct {
	RemoteFlag
	NoFetch bool   `name:"no-fetch" help:"Compare with what was fetched last: no network."`
	JSON    bool   `name:"json" help:"One JSON object: sessionId (or archive ref) to state."`
	Key     string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session here or on the remote)."`
}

// Run prints each session's state against the remote, then the archives.
// It is a query: exit 0 whatever the states.
func (c *SyncStatusCmd) Run(o *app.Streams, where *selection.Where, txn *app.Txn) error {
	s, key, err := syncOn(txn, where, c.Remote, c.Key)
	if err != nil {
		return err
	}
	s.NoFetch = c.NoFetch
	rows, err := s.Status(key)
	if err != nil {
		return err
	}
	if c.JSON {
		out := map[string]string{}
		for _, r := range rows {
			out[r.Name] = r.State
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(o.Stdout, string(b))
		return nil
	}
	for _, r := range rows {
		fmt.Fprintf(o.Stdout, "%s\t%s\n", safetext.Escape(r.Name), safetext.Escape(r.State))
		for _, x := range r.Extra {
			fmt.Fprintln(o.Stdout, x)
		}
	}
	return nil
}
