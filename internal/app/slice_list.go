package app

import "github.com/orc-state/orc-state/internal/ledger"

// SliceList is slice list's answer for the session's key (branch, "" for
// the current branch's) and the statuses asked for (every slice when
// none): the listing of its ledger, read without a lock, claims judged at
// the run's now (ledger.List), whose rows, columns, lines and "all done"
// exit (Unfinished) the verb prints and returns. The error is a ledger
// that cannot be read.
func SliceList(w *World, txn *Txn, branch string, statuses []string) (ledger.Listing, error) {
	_, _, l, err := sliceLedgerFor(txn.Where(), branch)
	if err != nil {
		return ledger.Listing{}, err
	}
	return ledger.List(l, statuses, w.Now()), nil
}
