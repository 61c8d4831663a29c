package app

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/slices"
)

// SliceNext returns the re-entry slice of the session's ledger (branch,
// "" for the current branch's), read without a lock (slices.Ledger.Next);
// exit 1 when there is none.
func SliceNext(txn *Txn, branch string) (slices.Slice, error) {
	_, _, l, err := sliceLedgerFor(txn.Where(), branch)
	if err != nil {
		return slices.Slice{}, err
	}
	id, ok := l.Next()
	if !ok {
		return slices.Slice{}, fault.NotFoundf("no open slice is ready (all done, escalated, or waiting on dependencies)")
	}
	sl, _ := l.Get(id)
	return sl, nil
}
