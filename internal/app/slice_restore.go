package app

// SliceRestore writes back the ledger that a slice init (or an earlier
// restore) replaced, of the session's key (branch, "" for the current
// branch's) from the archive at (its time as archive list shows it; ""
// for the newest ledger archive), journaled (removal.Run.RestoreLedger);
// the ledger it replaces is archived first, so running it again goes
// back. It prints nothing; it returns the refusal.
func SliceRestore(txn *Txn, branch, at string) error { return txn.Removal().RestoreLedger(branch, at) }
