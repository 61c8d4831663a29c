package migrate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

const legacy = `{"sessions":[{"branch":"legacy-name","gitBranch":"feat/x","command":"flow","status":"in_progress",
"phase":1,"totalPhases":3,"startedAt":"2026-01-02T15:04:05Z","updatedAt":"2026-01-02T15:04:05Z","colour":"blue"}]}`

// apply runs Apply in one raw transaction on d.
func apply(d *state.Dir) (*registry.Migration, error) {
	var m *registry.Migration
	err := d.Update(context.Background(), state.Options{Verb: "migrate", Actor: "cli", LockTimeout: time.Second, RawRegistry: true},
		func(tx *state.Tx) (err error) { m, err = Apply(tx); return err })
	return m, err
}

// A legacy registry becomes schema 1, the session's folder moving to its
// new key with its files, its mirror written and the key it could not
// map noted; a second run changes nothing, and a state dir without a
// registry is exit 1 with nothing written.
func TestApplyMigratesOnceAndMovesTheFolder(t *testing.T) {
	d := &state.Dir{Path: filepath.Join(t.TempDir(), ".orc")}
	if _, err := apply(d); fault.Code(err) != fault.NotFound {
		t.Fatalf("no registry: %v, want exit 1", err)
	}
	if _, err := os.Stat(d.RegistryPath()); !os.IsNotExist(err) {
		t.Fatalf("no registry: one was written (%v)", err)
	}
	if err := os.MkdirAll(filepath.Join(d.Path, "legacy-name"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "legacy-name", "progress.md"), []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.RegistryPath(), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := apply(d)
	if err != nil || !m.Changed || len(m.Notes) == 0 {
		t.Fatalf("legacy registry: %+v, %v", m, err)
	}
	reg, _, err := d.ReadRegistry()
	if err != nil || len(reg.Sessions) != 1 {
		t.Fatalf("after the migration: %v, %v", reg, err)
	}
	id := reg.Sessions[0].SessionID
	if id != "feat-x" {
		t.Fatalf("the session is keyed %q, want its branch's key feat-x", id)
	}
	if data, err := os.ReadFile(filepath.Join(d.Path, id, "progress.md")); err != nil || string(data) != "kept\n" {
		t.Errorf("the folder did not move to %s: %q, %v", id, data, err)
	}
	if _, err := os.Stat(d.File(id, state.CheckpointFile)); err != nil {
		t.Errorf("no mirror: %v", err)
	}
	if m, err := apply(d); err != nil || m.Changed {
		t.Errorf("second run: %+v, %v", m, err)
	}
}
