package cli

import "github.com/orc-state/orc-state/internal/app"

// SliceInitCmd is `slice init FILE`.
type SliceInitCmd struct {
	BranchFlag
	File  string `arg:"" help:"A JSON file with a .slices array; - reads stdin."`
	Force bool   `help:"Replace a ledger that has progress (journaled)."`
}

// Help is the detail of slice init --help: the plan's fields and what
// slice verify requires of them.
func (c *SliceInitCmd) Help() string { return app.SliceInitHelp() }

// Run installs a ledger from FILE, refusing to overwrite progress unless
// --force; a ledger it replaces is archived first (slice restore).
func (c *SliceInitCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return app.SliceInit(o, w, txn, app.SliceInitParams{Branch: c.Branch, File: c.File, Force: c.Force})
}
