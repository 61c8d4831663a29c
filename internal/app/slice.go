package app

// What the slice verbs share: reading the ledger, and the agent a claim
// belongs to.

import (
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// sliceLedgerFor reads a session's ledger without a lock.
func sliceLedgerFor(where *selection.Where, explicit string) (*state.Dir, *registry.Session, *slices.Ledger, error) {
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

// sliceAgentWithLease resolves the agent (--agent, "" for the default
// agent id) and checks the lease, which claim and renew both need before
// they take the lock.
func sliceAgentWithLease(w *World, where *selection.Where, agent string, lease time.Duration) (string, error) {
	agent, err := where.Agent(agent, w.Wd())
	if err != nil {
		return "", err
	}
	return agent, slices.CheckLease(lease)
}
