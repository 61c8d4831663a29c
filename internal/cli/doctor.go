package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// DoctorCmd is `doctor`.
type DoctorCmd struct {
	JSON bool `name:"json" help:"Findings as JSON."`
}

// Run checks the whole state dir (app.Doctor) and lists each problem with
// its next command; exit 1 when anything is found.
func (c *DoctorCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir) error {
	rep, err := app.Doctor(w, sd)
	if err != nil {
		return err
	}
	if c.JSON {
		if err := printJSON(o.Stdout, map[string]any{"stateDir": rep.StateDir, "ok": len(rep.Findings) == 0, "findings": rep.Findings}, "  "); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Findings {
			who := ""
			if f.Session != "" {
				who = f.Session + ": "
			}
			fmt.Fprintf(o.Stdout, "%s: %s%s\n  next: %s\n", f.Code, safetext.Escape(who), safetext.Escape(f.Message), safetext.Escape(f.Next))
		}
	}
	if len(rep.Findings) > 0 {
		return fault.NotFoundf("%d problem(s) in %s", len(rep.Findings), rep.StateDir)
	}
	return nil
}
