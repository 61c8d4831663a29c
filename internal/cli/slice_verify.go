package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceVerifyCmd is `slice verify`.
type SliceVerifyCmd struct {
	BranchFlag
	Budget *int `help:"LOC budget per slice (default $ORC_PR_LOC_BUDGET, else 300)." placeholder:"N"`
	Quiet  bool `help:"Print nothing; the exit code says FAIL."`
}

// Help is the detail of slice verify --help: the checks.
func (c *SliceVerifyCmd) Help() string { return slices.ReadinessText() }

// Run checks the plan's readiness (ledger.Readiness) and writes
// readiness.json.
func (c *SliceVerifyCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, where *selection.Where, txn *app.Txn) error {
	budget, err := ledger.Budget(c.Budget, w.Getenv("ORC_PR_LOC_BUDGET"))
	if err != nil {
		return err
	}
	d, s, l, err := ledgerFor(where, c.Branch)
	if err != nil {
		return err
	}
	rep := ledger.Readiness(d, s.SessionID, l, budget)
	head := "unknown"
	if h, err := app.HeadSHA(sd); err == nil {
		head = h
	}
	at := w.Stamp()
	err = txn.OnChoice(selection.ByID(s.SessionID), func(tx *state.Tx, s *registry.Session) error {
		ledger.WriteReadiness(tx, s.SessionID, rep, at, head)
		return nil
	})
	if err != nil {
		return err
	}
	if !c.Quiet {
		printLines(o.Stdout, ledger.ReportLines(rep))
	}
	return ledger.Failed(rep)
}
