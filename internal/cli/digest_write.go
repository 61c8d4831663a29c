package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
)

// DigestWriteCmd is `digest write -`.
type DigestWriteCmd struct {
	BranchFlag
	Source string `arg:"" optional:"" help:"Must be - (stdin)."`
}

// Help is the detail of digest write --help (app.DigestWriteHelp).
func (c *DigestWriteCmd) Help() string { return app.DigestWriteHelp() }

// Run replaces the Resume digest with stdin (app.DigestWrite); the digest
// it replaces is archived first (digest restore).
func (c *DigestWriteCmd) Run(o *app.Streams, txn *app.Txn) error {
	if c.Source != "-" {
		return fault.Usagef("the digest is read from stdin only").WithHint("orc-state digest write - reads the digest from stdin: give it as a here-document or through a pipe")
	}
	text, err := o.ReadStdin()
	if err != nil {
		return err
	}
	return app.DigestWrite(txn, c.Branch, text)
}
