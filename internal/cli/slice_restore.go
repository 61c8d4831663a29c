package cli

import "github.com/orc-state/orc-state/internal/app"

// SliceRestoreCmd is `slice restore`.
type SliceRestoreCmd struct {
	BranchFlag
	At string `help:"The archive to restore from, by the time orc-state archive list shows; default: the newest ledger archive." placeholder:"TIME"`
}

// Run writes back the ledger that a slice init (or an earlier restore)
// replaced, journaled (app.SliceRestore); the ledger it replaces is
// archived first, so running it again goes back.
func (c *SliceRestoreCmd) Run(txn *app.Txn) error { return app.SliceRestore(txn, c.Branch, c.At) }
