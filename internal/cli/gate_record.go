package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/textin"
)

// GateRecordCmd is `gate record PHASE --verdict V`.
type GateRecordCmd struct {
	BranchFlag
	Phase    int    `arg:"" help:"The phase the verdict is about (the current one)."`
	Verdict  string `required:"" enum:"${verdicts}" help:"${verdicts_help}."`
	Reviewer string `help:"Who gave the verdict." placeholder:"R"`
	Note     string `help:"One-line note." placeholder:"N"`
}

// Run records a verdict on the current phase (app.GateRecord): approved
// advances it (to done after the last), changes_requested counts a retry,
// and past the budget pauses the session and exits 5.
func (c *GateRecordCmd) Run(w *app.World, txn *app.Txn) error {
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := input.RefuseSecrets(name, []byte(v)); err != nil {
			return err
		}
	}
	return app.GateRecord(w, txn, app.GateRecordParams{Branch: c.Branch, Session: c.Session,
		Phase: c.Phase, Verdict: c.Verdict, Reviewer: c.Reviewer, Note: c.Note})
}
