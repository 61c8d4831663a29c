package app

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/slices"
)

// SliceInitParams are slice init's values: the session's key (--session,
// "" for the current branch's), the plan file (- is stdin), and --force.
type SliceInitParams struct {
	Branch, File string
	Force        bool
}

// SliceInitHelp is the detail of slice init --help: the plan's fields
// and what slice verify requires of them.
func SliceInitHelp() string { return slices.PlanText() + "\n" + slices.ReadinessText() }

// SliceInit installs a ledger from the plan file, refusing to overwrite
// progress, or to replace a ledger under live claims, unless --force; a
// ledger it replaces is archived first (slice restore), journaled with
// the file, --force and the new ledger's sha256
// (removal.Run.ReplaceLedger). It prints nothing; it returns the refusal.
func SliceInit(o *Streams, w *World, txn *Txn, p SliceInitParams) error {
	data, err := o.ReadInput(w, p.File)
	if err != nil {
		return err
	}
	l, err := slices.ParseInput(data)
	if err != nil {
		return err
	}
	out := l.Marshal()
	refuse := func(old []byte) error {
		if p.Force {
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
	choice, err := txn.Where().Choose(p.Branch)
	if err != nil {
		return err
	}
	return txn.Removal().ReplaceLedger(choice, out, refuse, map[string]any{"file": p.File, "force": p.Force, "sha256": journal.Sum(out)})
}
