package cli

// What the slice verbs share: reading the ledger and the decisions.

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// ledgerFor reads a session's ledger without a lock.
func ledgerFor(where *selection.Where, explicit string) (*state.Dir, *registry.Session, *slices.Ledger, error) {
	d, _, s, err := where.Session(explicit)
	if err != nil {
		return nil, nil, nil, err
	}
	data, err := d.ReadFile(s.SessionID, state.LedgerFile)
	if err != nil {
		return nil, nil, nil, err
	}
	if data == nil {
		return nil, nil, nil, fault.NotFoundf("session %s has no slice ledger", s.SessionID).WithHint("orc-state slice init FILE")
	}
	l, err := slices.Parse(data)
	return d, s, l, err
}
