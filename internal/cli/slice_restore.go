package cli

import (
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// SliceRestoreCmd is `slice restore`.
type SliceRestoreCmd struct {
	BranchFlag
	At string `help:"The archive to restore from, by the time orc-state archive list shows; default: the newest ledger archive." placeholder:"TIME"`
}

// Run writes back the ledger that a slice init (or an earlier restore)
// replaced, journaled; the ledger it replaces is archived first, so
// running it again goes back.
func (c *SliceRestoreCmd) Run(e *Env) error {
	a, snap, err := e.pickArchive(c.Branch, c.At, archive.KindLedger)
	if err != nil {
		return err
	}
	data := snap["files/"+state.LedgerFile]
	if _, err := slices.Parse(data); err != nil {
		return fault.Invalidf("%s holds no ledger this orc-state can write back: %v; nothing was written", safetext.Escape(a.Name), err).
			WithHint("orc-state archive list shows the other archives")
	}
	return e.replaceLedger(c.Branch, data, func([]byte) error { return nil },
		map[string]any{"restored": a.Name, "sha256": journal.Sum(data)})
}
