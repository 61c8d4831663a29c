// Package statetest is the rig of the tests that run no CLI, and what
// the CLI's rig (internal/clitest) is built on: the one way the tests
// make a scratch repository (MakeRepo, Repo: a copy of a template git
// made once), the hermetic environment git and orc-state run in
// (HermeticEnv, GitIdentity), a state dir seeded with sessions through
// the one transaction (Seed, Seeding, Entry), and listings of a folder to
// compare before and after a run that must write nothing (Contents,
// Files, Manifest). It imports nothing above internal/state, so an
// application package's own (internal) tests can use it where
// internal/clitest, which imports the CLI, would be an import cycle. Only
// tests import it.
package statetest

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Options are the transaction options of a test's own writes.
var Options = state.Options{Verb: "test", Actor: "cli", LockTimeout: time.Second}

// Entry is the registry entry of session id on branch id as init writes
// one: flow, in progress, phase 1 of 3, no pull requests, started and
// updated at at.
func Entry(id string, at time.Time) registry.Session {
	stamp := registry.Stamp(at)
	return registry.Session{SessionID: id, Branch: id, GitBranch: id, Command: "flow", Status: "in_progress",
		Phase: registry.Phase{N: 1}, TotalPhases: 3, LinkedPRs: []registry.PR{}, StartedAt: stamp, UpdatedAt: stamp}
}

// A Seeding is what a seeded state dir holds beside its entries.
type Seeding struct {
	Clock  func() time.Time // the dir's clock, its transactions' time (nil: the time now)
	Ledger string           // each session's slices.json ("": none)
}

// Seed makes root/.orc, a state dir outside any repository (its archives
// are folders of .orc/.archive), holding entries, each with its mirror,
// written by one transaction: Seeding{}.Seed.
func Seed(t testing.TB, root string, entries ...registry.Session) *state.Dir {
	t.Helper()
	return Seeding{}.Seed(t, root, entries...)
}

// Seed makes root/.orc holding entries, each with its mirror and s's
// ledger, written by one transaction at s's clock; the dir returned keeps
// the clock. It is the one way the application packages' tests start a
// state dir with sessions.
func (s Seeding) Seed(t testing.TB, root string, entries ...registry.Session) *state.Dir {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &state.Dir{Path: filepath.Join(root, ".orc"), Clock: s.Clock}
	err := d.Update(context.Background(), Options, func(tx *state.Tx) error {
		for _, e := range entries {
			tx.Reg.Sessions = append(tx.Reg.Sessions, e)
			if err := tx.Mirror(&tx.Reg.Sessions[len(tx.Reg.Sessions)-1]); err != nil {
				return err
			}
			if s.Ledger != "" {
				tx.Write(e.SessionID, state.LedgerFile, []byte(s.Ledger))
			}
			tx.Touch(e.SessionID, nil)
		}
		tx.RegistryChanged()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Contents is every file under root with its content, by its path
// relative to root (with slashes), the lock file aside (a reader may
// create it): equal before and after a run that must write nothing.
func Contents(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Files is Contents as one text, each path (under root) followed by its
// content: for a test that compares a whole state dir at once.
func Files(t testing.TB, root string) string {
	t.Helper()
	files := Contents(t, root)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(filepath.Join(root, filepath.FromSlash(p)) + "\n" + files[p] + "\n")
	}
	return b.String()
}
