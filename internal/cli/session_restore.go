package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SessionRestoreCmd is `session restore`.
type SessionRestoreCmd struct {
	Archive string `arg:"" name:"id" help:"The sessionId (or orphan folder) to bring back, optionally @TIME (a time orc-state archive list shows); default: its newest archive."`
}

// Run brings a removed session back from its archive, byte for byte
// (app.SessionRestore), and says what became of its bindings. It is
// refused (exit 2, nothing written) while a session holds that key, that
// branch or that folder.
func (c *SessionRestoreCmd) Run(o *app.Streams, txn *app.Txn) error {
	done, err := app.SessionRestore(txn, c.Archive)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "restored %s from %s\n", safetext.Escape(done.ID), safetext.Escape(done.Archive))
	for _, n := range done.Notes {
		fmt.Fprintln(o.Stdout, n)
	}
	return nil
}
