package cli

import "github.com/orc-state/orc-state/internal/app"

// RepairCmd is `repair`.
type RepairCmd struct {
	BranchFlag
	Temp          bool   `help:"Remove temp files left by interrupted writes." xor:"fix"`
	Adopt         string `help:"Register an orphan folder from its checkpoint frontmatter." placeholder:"NAME" xor:"fix"`
	RemoveOrphan  string `name:"remove-orphan" help:"Remove an orphan folder (tombstone in removed.jsonl)." placeholder:"NAME" xor:"fix"`
	Redact        bool   `help:"Remove credentials an older orc-state stored in the session's entry, files or journal (rewrites them with a marker and re-chains the journal)." xor:"fix"`
	RedactRemoved bool   `name:"redact-removed" help:"Remove credentials an older orc-state stored in removed.jsonl (rewrites those lines with a marker)." xor:"fix"`
	Rebuild       bool   `name:"rebuild-registry" help:"Rebuild an unreadable orc.json from each session's checkpoint frontmatter and journal (the damaged file kept aside in the state dir)." xor:"fix"`
}

// Run applies the fixes doctor names (app.Repair), each journaled, and
// prints what each reports once it committed; first, the interrupted
// transaction it completed, if one was recorded.
func (c *RepairCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	rep, err := app.Repair(txn, w, app.RepairParams{Branch: c.Branch, Temp: c.Temp, Adopt: c.Adopt, RemoveOrphan: c.RemoveOrphan,
		Redact: c.Redact, RedactRemoved: c.RedactRemoved, Rebuild: c.Rebuild})
	printLines(o.Stdout, rep.Finished) // said even when the fix then fails
	if err != nil {
		return err
	}
	printLines(o.Stdout, rep.Out)
	printLines(o.Stderr, rep.Errs)
	return nil
}
