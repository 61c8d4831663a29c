// Package statetest is what the application packages' tests share: a
// state dir seeded with sessions through the one transaction, and a
// listing of a state dir's files to compare before and after a refusal.
// Only tests import it.
package statetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Options are the transaction options of a test's own writes.
var Options = state.Options{Verb: "test", Actor: "cli", LockTimeout: time.Second}

// Seed makes root/.orc, a state dir outside any repository (its archives
// are folders of .orc/.archive), holding entries, each with its mirror,
// written by one transaction.
func Seed(t testing.TB, root string, entries ...registry.Session) *state.Dir {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &state.Dir{Path: filepath.Join(root, ".orc")}
	err := d.Update(context.Background(), Options, func(tx *state.Tx) error {
		for _, s := range entries {
			tx.Reg.Sessions = append(tx.Reg.Sessions, s)
			if err := tx.Mirror(&tx.Reg.Sessions[len(tx.Reg.Sessions)-1]); err != nil {
				return err
			}
			tx.Touch(s.SessionID, nil)
		}
		tx.RegistryChanged()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Files is every file under root with its content, the lock file aside
// (a reader may create it): equal before and after a run that must write
// nothing.
func Files(t testing.TB, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data) + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
