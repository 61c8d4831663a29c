package cli

import (
	"fmt"
	"math"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/ledger"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceVerifyCmd is `slice verify`.
type SliceVerifyCmd struct {
	BranchFlag
	Budget *int `help:"LOC budget per slice (default $ORC_PR_LOC_BUDGET, else 300)." placeholder:"N"`
	Quiet  bool `help:"Print nothing; the exit code says FAIL."`
}

// budget is --budget, else $ORC_PR_LOC_BUDGET, else 0 (the readiness
// check's default): a whole number of lines, at least 1, in decimal; any
// other value is refused, not replaced by the default (docs/protocol.md §4).
func (c *SliceVerifyCmd) budget(e *Env) (int, error) {
	if c.Budget != nil {
		if *c.Budget < 1 || *c.Budget > math.MaxInt32 {
			return 0, fault.Usagef("--budget %d is outside 1 to %d", *c.Budget, math.MaxInt32).
				WithHint("pass the LOC budget per slice, such as --budget 300")
		}
		return *c.Budget, nil
	}
	v := e.getenv("ORC_PR_LOC_BUDGET")
	if v == "" {
		return 0, nil
	}
	n, err := textin.Decimal(v, 1, math.MaxInt32)
	if err != nil {
		return 0, fault.Usagef("$ORC_PR_LOC_BUDGET: %v", err).
			WithHint("set it to the LOC budget per slice, such as 300, or unset it (or pass --budget N)")
	}
	return int(n), nil
}

// Help is the detail of slice verify --help: the checks.
func (c *SliceVerifyCmd) Help() string { return slices.ReadinessText() }

// Run checks the plan's readiness and writes readiness.json.
func (c *SliceVerifyCmd) Run(e *Env) error {
	budget, err := c.budget(e)
	if err != nil {
		return err
	}
	d, s, l, err := e.ledgerFor(c.Branch)
	if err != nil {
		return err
	}
	rep := ledger.Readiness(d, s.SessionID, l, budget)
	head := "unknown"
	if h, err := e.headSHA(); err == nil {
		head = h
	}
	at := e.stamp()
	err = e.onChoice(selection.ByID(s.SessionID), func(tx *state.Tx, s *registry.Session) error {
		ledger.WriteReadiness(tx, s.SessionID, rep, at, head)
		return nil
	})
	if err != nil {
		return err
	}
	if !c.Quiet {
		fmt.Fprintln(e.Stdout, rep.Verdict)
		for _, f := range rep.Checks {
			id := f.SliceID
			if id == "" {
				id = "-"
			}
			fmt.Fprintf(e.Stdout, "  %s\t%s\t%s\t%s\n", f.Check, f.Status, safetext.Escape(id), safetext.Escape(f.Detail))
		}
	}
	if rep.Verdict == "FAIL" {
		return fault.NotFoundf("readiness FAIL (%d finding(s))", len(rep.Checks))
	}
	return nil
}
