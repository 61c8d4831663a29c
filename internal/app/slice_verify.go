package app

import (
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceReadiness is slice verify's answer: the report's lines (the
// verdict, then a finding per line), and Fail, the exit when the verdict
// is FAIL (nil otherwise).
type SliceReadiness struct {
	Lines []string
	Fail  error
}

// SliceVerifyHelp is the detail of slice verify --help: the checks.
func SliceVerifyHelp() string { return slices.ReadinessText() }

// SliceVerify checks the readiness of the session's plan (branch, "" for
// the current branch's) for the LOC budget per slice (budget, --budget;
// nil for $ORC_PR_LOC_BUDGET, else the check's default), reading the
// ledger without a lock (ledger.Readiness), and writes readiness.json
// under the lock, stamped with HEAD ("unknown" when git cannot say). It
// returns the report; the error is a refusal.
func SliceVerify(w *World, sd *StateDir, txn *Txn, branch string, budget *int) (SliceReadiness, error) {
	n, err := ledger.Budget(budget, w.Getenv("ORC_PR_LOC_BUDGET"))
	if err != nil {
		return SliceReadiness{}, err
	}
	d, s, l, err := sliceLedgerFor(txn.Where(), branch)
	if err != nil {
		return SliceReadiness{}, err
	}
	rep := ledger.Readiness(d, s.SessionID, l, n)
	head := "unknown"
	if h, err := HeadSHA(sd); err == nil {
		head = h
	}
	at := w.Stamp()
	err = txn.OnChoice(selection.ByID(s.SessionID), func(tx *state.Tx, s *registry.Session) error {
		ledger.WriteReadiness(tx, s.SessionID, rep, at, head)
		return nil
	})
	if err != nil {
		return SliceReadiness{}, err
	}
	return SliceReadiness{Lines: ledger.ReportLines(rep), Fail: ledger.Failed(rep)}, nil
}
