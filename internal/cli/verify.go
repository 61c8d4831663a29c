package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/verify"
)

// VerifyCmd is `verify`.
type VerifyCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId." predictor:"session"`
	JSON bool   `name:"json" help:"Findings as JSON."`
}

// Run checks one session (verify.Full) and lists each problem.
func (c *VerifyCmd) Run(o *app.Streams, w *app.World, where *selection.Where) error {
	key := c.keyOr(c.Key)
	d, reg, s, err := where.Session(key)
	if err != nil {
		return err
	}
	findings, err := verify.Full(d, reg, s, w.Now(), w.Environ())
	if err != nil {
		return err
	}
	problems := len(findings)
	if c.JSON {
		if findings == nil {
			findings = []verify.Finding{}
		}
		if err := printJSON(o.Stdout, map[string]any{"sessionId": s.SessionID, "ok": problems == 0, "findings": findings}, "  "); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			fmt.Fprintf(o.Stdout, "%s: %s\n  next: %s\n", f.Code, safetext.Escape(f.Message), safetext.Escape(f.Next))
		}
	}
	if problems > 0 {
		return fault.NotFoundf("%d problem(s) in session %s", problems, s.SessionID)
	}
	return nil
}
