package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SyncStatusCmd is `sync status`.
type SyncStatusCmd struct {
	RemoteFlag
	NoFetch bool   `name:"no-fetch" help:"Compare with what was fetched last: no network."`
	JSON    bool   `name:"json" help:"One JSON object: sessionId (or archive ref) to state."`
	Key     string `arg:"" optional:"" help:"One session, branch or sessionId (default: every session here or on the remote)."`
}

// Run prints each session's state against the remote, then the archives
// (app.SyncStatus). It is a query: exit 0 whatever the states.
func (c *SyncStatusCmd) Run(o *app.Streams, txn *app.Txn) error {
	rows, err := app.SyncStatus(txn, c.Remote, c.Key, c.NoFetch)
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
		printLines(o.Stdout, r.Extra)
	}
	return nil
}
