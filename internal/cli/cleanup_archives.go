package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
)

// sweepArchives is `cleanup --archives --older-than DUR [ID...]`: the
// archives made before now minus DUR, of the sessions named (else all),
// listed, and deleted only with --force (app.CleanupArchives).
func (c *CleanupCmd) sweepArchives(o *app.Streams, txn *app.Txn) error {
	switch {
	case c.AllCompleted || c.Gone || c.Merged || c.Into != "":
		return fault.Usagef("--archives sweeps archives, not sessions").WithHint("run the two sweeps separately")
	case c.OlderThan == "":
		return fault.Usagef("--archives needs --older-than DUR").WithHint("orc-state cleanup --archives --older-than 30d lists the archives older than 30 days (0d: every one)")
	}
	minAge, err := c.minAge()
	if err != nil {
		return err
	}
	dryRun := !c.Force || c.DryRun
	sw, err := app.CleanupArchives(txn, c.Keys, minAge, !dryRun)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, map[string]any{"dryRun": dryRun, "archives": sw.Rows}, "  ")
	}
	if _, err := fmt.Fprint(o.Stdout, sw.Text()); err != nil {
		return err
	}
	if len(sw.Rows) > 0 && dryRun {
		fmt.Fprintf(o.Stderr, "%d archive(s) listed, nothing deleted; add --force to delete them for good\n", len(sw.Rows))
	}
	return nil
}
