package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// MigrateCmd is `migrate`.
type MigrateCmd struct{}

// Run upgrades a legacy registry to schema 1. Every key it cannot map is
// listed on stderr and kept, with its value, in the session's journal.
func (c *MigrateCmd) Run(e *Env) error {
	var m *registry.Migration
	err := e.updateRaw(func(tx *state.Tx) error {
		if tx.Raw == nil {
			return fault.NotFoundf("no registry at %s", tx.Dir().RegistryPath())
		}
		var err error
		if m, err = registry.Migrate(tx.Raw, tx.Dir().Now()); err != nil {
			return err
		}
		if !m.Changed {
			return nil
		}
		tx.Reg = m.Registry
		tx.RegistryChanged()
		for id, olds := range m.Folders {
			if err := stageFolderMove(tx, id, olds); err != nil {
				return err
			}
		}
		for i := range tx.Reg.Sessions {
			s := &tx.Reg.Sessions[i]
			if err := tx.Mirror(s); err != nil {
				return err
			}
			args := map[string]any{"from": "legacy"}
			if d := m.Dropped[s.SessionID]; len(d) > 0 {
				args["dropped"] = d
			}
			if len(m.DroppedTop) > 0 {
				args["droppedTop"] = m.DroppedTop
			}
			if olds := m.Folders[s.SessionID]; len(olds) > 0 {
				args["formerKeys"] = olds
			}
			tx.Touch(s.SessionID, args)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !m.Changed {
		fmt.Fprintln(e.Stdout, "orc-state migrate: registry already at schema 1")
		return nil
	}
	for _, n := range m.Notes {
		e.warn("%s", n)
	}
	fmt.Fprintln(e.Stdout, "orc-state migrate: registry migrated to schema 1")
	return nil
}

// stageFolderMove moves the legacy folder of a session to its new key when
// exactly one old folder exists and the new one does not; otherwise the old
// folders are left for doctor to report.
func stageFolderMove(tx *state.Tx, id string, olds []string) error {
	if _, err := os.Stat(filepath.Join(tx.Dir().Path, id)); err == nil {
		return nil
	}
	var found []string
	for _, o := range olds {
		if registry.CheckKey(registry.Sanitize(o)) != nil || o == "." || o == ".." || filepath.Base(o) != o {
			continue
		}
		if st, err := os.Stat(filepath.Join(tx.Dir().Path, o)); err == nil && st.IsDir() {
			found = append(found, o)
		}
	}
	if len(found) == 1 {
		tx.RenameSession(found[0], id)
	}
	return nil
}

// updateRaw is Update without the strict registry read (migrate only).
func (e *Env) updateRaw(fn func(tx *state.Tx) error) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	return e.update(d, state.Options{RawRegistry: true}, fn)
}
