// Package migrate owns what migrate does inside the one transaction: a
// legacy registry (read raw, not by the strict schema-1 reader) upgraded
// to schema 1 by registry.Migrate, each session's legacy folder moved to
// its new key when that is unambiguous, every mirror regenerated, and each
// session's journal keeping the keys the migration could not map, with
// their values. The CLI opens the raw transaction and prints.
package migrate

import (
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Apply upgrades tx's raw registry (a transaction with
// state.Options.RawRegistry) to schema 1 and returns the migration; one
// already at schema 1 is left alone (Changed false). No registry is exit 1.
func Apply(tx *state.Tx) (*registry.Migration, error) {
	if tx.Raw == nil {
		return nil, fault.NotFoundf("no registry at %s", tx.Dir().RegistryPath())
	}
	m, err := registry.Migrate(tx.Raw, tx.Dir().Now())
	if err != nil {
		return nil, err
	}
	if !m.Changed {
		return m, nil
	}
	tx.Reg = m.Registry
	tx.RegistryChanged()
	for id, olds := range m.Folders {
		if err := stageFolderMove(tx, id, olds); err != nil {
			return nil, err
		}
	}
	for i := range tx.Reg.Sessions {
		s := &tx.Reg.Sessions[i]
		if err := tx.Mirror(s); err != nil {
			return nil, err
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
	return m, nil
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
