package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/state"
)

// rebuildRegistry is `repair --rebuild-registry` (repair.Rebuild):
// orc.json rebuilt from the sessions' folders when it cannot be read.
func (c *RepairCmd) rebuildRegistry(e *Env) error {
	var out []string
	kept := ""
	err := e.updateRaw(func(tx *state.Tx) (err error) {
		out, kept, err = repair.Rebuild(tx)
		return err
	})
	if err != nil {
		return err
	}
	for _, l := range out {
		fmt.Fprintln(e.Stdout, l)
	}
	if kept != "" {
		fmt.Fprintf(e.Stderr, "the damaged orc.json is kept as %s in the state dir\n", kept)
	}
	return nil
}
