package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/migrate"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// MigrateCmd is `migrate`.
type MigrateCmd struct{}

// Run upgrades a legacy registry to schema 1 (migrate.Apply). Every key
// it cannot map is listed on stderr and kept, with its value, in the
// session's journal.
func (c *MigrateCmd) Run(o *app.Streams, txn *app.Txn) error {
	var m *registry.Migration
	err := txn.UpdateRaw(func(tx *state.Tx) (err error) {
		m, err = migrate.Apply(tx)
		return err
	})
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
