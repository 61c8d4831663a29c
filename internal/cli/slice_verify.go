package cli

import "github.com/orc-state/orc-state/internal/app"

// SliceVerifyCmd is `slice verify`.
type SliceVerifyCmd struct {
	BranchFlag
	Budget *int `help:"LOC budget per slice (default $ORC_PR_LOC_BUDGET, else 300)." placeholder:"N"`
	Quiet  bool `help:"Print nothing; the exit code says FAIL."`
}

// Help is the detail of slice verify --help: the checks.
func (c *SliceVerifyCmd) Help() string { return app.SliceVerifyHelp() }

// Run checks the plan's readiness and writes readiness.json
// (app.SliceVerify), then prints the report; exit 1 on FAIL.
func (c *SliceVerifyCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	rep, err := app.SliceVerify(w, sd, txn, c.Branch, c.Budget)
	if err != nil {
		return err
	}
	if !c.Quiet {
		printLines(o.Stdout, rep.Lines)
	}
	return rep.Fail
}
