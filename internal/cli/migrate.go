package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
)

// MigrateCmd is `migrate`.
type MigrateCmd struct{}

// Run upgrades a legacy registry to schema 1 (app.Migrate). Every key it
// cannot map is listed on stderr and kept, with its value, in the
// session's journal.
func (c *MigrateCmd) Run(o *app.Streams, txn *app.Txn) error {
	m, err := app.Migrate(txn)
	if err != nil {
		return err
	}
	if !m.Changed {
		fmt.Fprintln(o.Stdout, "orc-state migrate: registry already at schema 1")
		return nil
	}
	for _, n := range m.Notes {
		o.Warn("%s", n)
	}
	fmt.Fprintln(o.Stdout, "orc-state migrate: registry migrated to schema 1")
	return nil
}
