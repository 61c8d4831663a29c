package app

import "github.com/orc-state/orc-state/internal/sessioninit"

// InitFields are init's flags, nil (or empty) when not passed; the
// journal keeps them as the change's arguments (sessioninit.Fields).
type InitFields = sessioninit.Fields

// InitResult is what init did: the session's id, whether it was
// registered now, and its status as on disk after the write
// (sessioninit.Result).
type InitResult = sessioninit.Result

// Init registers the session of branch (the current branch when ""), or
// updates only the fields passed on the session the selector names
// (sessioninit.Run.Init), in one transaction stamped with the run's
// recorded time, and returns what it did.
func Init(w *World, txn *Txn, branch string, f InitFields) (InitResult, error) {
	r := sessioninit.Run{Where: *txn.Where(), Stamp: w.Stamp, Update: txn.Update}
	return r.Init(branch, f)
}
