package app

import (
	"github.com/orc-state/orc-state/internal/migrate"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Migrate upgrades a legacy registry to schema 1 in one transaction that
// reads the registry raw (migrate.Apply), and returns the migration:
// whether it changed anything, and a note for every key it could not map
// (kept, with its value, in the session's journal).
func Migrate(txn *Txn) (*registry.Migration, error) {
	var m *registry.Migration
	err := txn.UpdateRaw(func(tx *state.Tx) (err error) {
		m, err = migrate.Apply(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
