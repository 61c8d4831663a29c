package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (or pass --branch or --session)."`
	Force bool   `help:"Also remove an in_progress or paused session (archived first, like every removal)."`
}

// Run removes one session: entry, folder, tombstone, after keeping its
// entry and files in an archive (app.SessionRemove; session restore
// brings them back).
func (c *SessionRemoveCmd) Run(o *app.Streams, txn *app.Txn) error {
	key := c.keyOr(c.Key)
	if key == "" && c.Session == "" { // --session is the run's selection flag
		return fault.Usagef("name the session to remove").WithHint("orc-state session remove B, or --session S (archived first: orc-state session restore brings it back)")
	}
	done, err := app.SessionRemove(txn, key, c.Force)
	if err != nil || done.Archive == "" {
		return err
	}
	fmt.Fprintf(o.Stderr, "removed session %s, archived first as %s; to bring it back: orc-state session restore %s\n",
		safetext.Escape(done.Session), safetext.Escape(done.Archive), safetext.Operand(done.Session+"@"+done.At))
	return nil
}
