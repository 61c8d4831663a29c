package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/slices"
)

// SliceInitCmd is `slice init FILE`.
type SliceInitCmd struct {
	BranchFlag
	File  string `arg:"" help:"A JSON file with a .slices array; - reads stdin."`
	Force bool   `help:"Replace a ledger that has progress (journaled)."`
}

// Help is the detail of slice init --help: the plan's fields and what
// slice verify requires of them.
func (c *SliceInitCmd) Help() string { return slices.PlanText() + "\n" + slices.ReadinessText() }

// Run installs a ledger from FILE, refusing to overwrite progress unless
// --force; a ledger it replaces is archived first (slice restore).
func (c *SliceInitCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	data, err := o.ReadInput(w, c.File)
	if err != nil {
		return err
	}
	l, err := slices.ParseInput(data)
	if err != nil {
		return err
	}
	out := l.Marshal()
	refuse := func(old []byte) error {
		if c.Force {
			return nil
		}
		prev, err := slices.Parse(old)
		if err != nil {
			return err
		}
		if prev.HasProgress() {
			done, total := prev.Done()
			return fault.Usagef("the ledger has progress (%d of %d slices done, some not pending); refusing to overwrite it", done, total).
				WithHint("pass --force to replace it (journaled; the ledger it replaces is archived first, and orc-state slice restore brings it back)")
		}
		if h := prev.Holdings(w.Now()); len(h) > 0 {
			return fault.Usagef("slice %s is claimed by %s until %s (%d live claim(s)); refusing to replace the ledger under working agents",
				h[0].ID, h[0].By, h[0].Until.Format(slices.TimeLayout), len(h)).
				WithHint("wait for them, or pass --force to replace it (journaled; the ledger it replaces is archived first, and orc-state slice restore brings it back)")
		}
		return nil
	}
	choice, err := where.Choose(c.Branch)
	if err != nil {
		return err
	}
	return txn.Removal().ReplaceLedger(choice, out, refuse, map[string]any{"file": c.File, "force": c.Force, "sha256": journal.Sum(out)})
}
