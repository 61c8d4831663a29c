package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/removal"
)

// sweepArchives is `cleanup --archives --older-than DUR [ID...]`: the
// archives made before now minus DUR, of the sessions named (else all),
// listed, and deleted only with --force (removal.Run.SweepArchives).
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
	rows, err := txn.Removal().SweepArchives(c.Keys, minAge, !dryRun)
	if err != nil {
		return err
	}
	if c.JSON {
		if rows == nil {
			rows = []removal.ArchiveRow{}
		}
		return printJSON(o.Stdout, map[string]any{"dryRun": dryRun, "archives": rows}, "  ")
	}
	if _, err := fmt.Fprint(o.Stdout, removal.SweepText(rows)); err != nil {
		return err
	}
	if len(rows) > 0 && dryRun {
		fmt.Fprintf(o.Stderr, "%d archive(s) listed, nothing deleted; add --force to delete them for good\n", len(rows))
	}
	return nil
}
