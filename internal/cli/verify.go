package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// VerifyCmd is `verify`.
type VerifyCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId." predictor:"session"`
	JSON bool   `name:"json" help:"Findings as JSON."`
}

// Run checks one session (app.Verify) and lists each problem.
func (c *VerifyCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	rep, err := app.Verify(txn, w, c.keyOr(c.Key))
	if err != nil {
		return err
	}
	problems := len(rep.Findings)
	if c.JSON {
		if err := printJSON(o.Stdout, map[string]any{"sessionId": rep.SessionID, "ok": problems == 0, "findings": rep.Findings}, "  "); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Findings {
			fmt.Fprintf(o.Stdout, "%s: %s\n  next: %s\n", f.Code, safetext.Escape(f.Message), safetext.Escape(f.Next))
		}
	}
	if problems > 0 {
		return fault.NotFoundf("%d problem(s) in session %s", problems, rep.SessionID)
	}
	return nil
}
