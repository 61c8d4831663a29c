package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

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

// Run applies the fixes doctor names (internal/repair), each journaled,
// and prints what each reports once it committed.
//
// An interrupted transaction comes first: when one is recorded, repair
// completes it (the state becomes exactly what the interrupted verb would
// have written). Plain repair stops there (run it again for the session's
// own fixes); --temp, --adopt and --remove-orphan go on with their fix.
func (c *RepairCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	in, err := txn.Finish()
	if err != nil {
		return err
	}
	if in != nil {
		fmt.Fprintln(o.Stdout, repair.Finished(in))
	}
	var out, errs []string
	report := func(fix func(tx *state.Tx) ([]string, error)) func(tx *state.Tx) error {
		return func(tx *state.Tx) (err error) { out, err = fix(tx); return err }
	}
	onSession := func(fix func(tx *state.Tx, s *registry.Session) ([]string, error)) error {
		return txn.OnSession(c.Branch, func(tx *state.Tx, s *registry.Session) (err error) { out, err = fix(tx, s); return err })
	}
	switch {
	case c.Temp:
		err = txn.Update(func(tx *state.Tx) error { out = txn.Fix().TempReport(tx); return nil })
	case c.Adopt != "":
		if err = repair.Adoptable(c.Adopt); err == nil {
			err = txn.Update(report(func(tx *state.Tx) ([]string, error) { return repair.AdoptReport(tx, c.Adopt) }))
		}
	case c.RemoveOrphan != "":
		out, errs, err = txn.Removal().RemoveOrphan(c.RemoveOrphan, txn.Fix)
	case c.Redact:
		err = onSession(repair.RedactReport)
	case c.RedactRemoved:
		err = txn.Update(report(func(tx *state.Tx) ([]string, error) { return txn.Fix().RedactRemovedReport(tx) }))
	case c.Rebuild:
		err = txn.UpdateRaw(func(tx *state.Tx) (err error) { out, errs, err = repair.RebuildReport(tx); return err })
	case in != nil:
		return nil
	default:
		err = onSession(func(tx *state.Tx, s *registry.Session) ([]string, error) { return repair.Plain(tx, s, w.Now()) })
	}
	if err != nil {
		return err
	}
	printLines(o.Stdout, out)
	printLines(o.Stderr, errs)
	return nil
}
