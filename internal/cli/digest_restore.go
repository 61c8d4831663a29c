package cli

import "github.com/orc-state/orc-state/internal/app"

// DigestRestoreCmd is `digest restore`.
type DigestRestoreCmd struct {
	BranchFlag
	At string `help:"The archive to restore from, by the time orc-state archive list shows; default: the newest digest archive." placeholder:"TIME"`
}

// Run writes back the Resume digest that a digest write (or an earlier
// restore) replaced, journaled (app.DigestRestore); the digest it
// replaces is archived first, so running it again goes back.
func (c *DigestRestoreCmd) Run(txn *app.Txn) error {
	return app.DigestRestore(txn, c.Branch, c.At)
}
