package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
)

// DoctorCmd is `doctor`.
type DoctorCmd struct {
	JSON bool `name:"json" help:"Findings as JSON."`
}

// Run checks the whole state dir (verify.StateDir, verify.Archives) and
// lists each problem with its next command; exit 1 when anything is found.
func (c *DoctorCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir) error {
	d, err := sd.Dir()
	if err != nil {
		return err
	}
	findings := verify.StateDir(d, w.Now(), w.Environ())
	findings = append(findings, verify.Archives(d, w.Getenv("ORC_ARCHIVE_WARN_BYTES"))...)
	if c.JSON {
		if findings == nil {
			findings = []verify.DirFinding{}
		}
		if err := printJSON(o.Stdout, map[string]any{"stateDir": d.Path, "ok": len(findings) == 0, "findings": findings}, "  "); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			who := ""
			if f.Session != "" {
				who = f.Session + ": "
			}
			fmt.Fprintf(o.Stdout, "%s: %s%s\n  next: %s\n", f.Code, safetext.Escape(who), safetext.Escape(f.Message), safetext.Escape(f.Next))
		}
	}
	if len(findings) > 0 {
		return fault.NotFoundf("%d problem(s) in %s", len(findings), d.Path)
	}
	return nil
}
