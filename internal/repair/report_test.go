package repair

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

// update runs fn on session a of d in one transaction of repair.
func update(t *testing.T, d *state.Dir, fn func(tx *state.Tx, s *registry.Session) error) {
	t.Helper()
	err := d.Update(context.Background(), state.Options{Verb: "repair", Actor: "cli", LockTimeout: time.Second}, func(tx *state.Tx) error {
		return fn(tx, tx.Reg.Find("a"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Plain repair of a sound session says there is nothing to repair and
// writes nothing; once its checkpoint is gone it regenerates the mirror
// and says so, and a second run finds nothing again.
func TestPlainRegeneratesOnlyAMirrorThatNeedsIt(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a := statetest.Entry("a", t0)
	a.TotalPhases = 2
	d := statetest.Seeding{Clock: func() time.Time { return t0 }}.Seed(t, t.TempDir(), a)
	plain := func() []string {
		var out []string
		update(t, d, func(tx *state.Tx, s *registry.Session) (err error) {
			out, err = Plain(tx, s, t0)
			return err
		})
		return out
	}
	if got, want := plain(), []string{"nothing to repair in a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sound session: %q, want %q", got, want)
	}
	cp := d.File("a", state.CheckpointFile)
	if err := os.Remove(cp); err != nil {
		t.Fatal(err)
	}
	if got, want := plain(), []string{"repaired a: checkpoint mirror regenerated, journal re-baselined"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("checkpoint gone: %q, want %q", got, want)
	}
	if _, err := os.Stat(cp); err != nil {
		t.Fatalf("the mirror is not back: %v", err)
	}
	if got, want := plain(), []string{"nothing to repair in a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the repair: %q, want %q", got, want)
	}
}

// An interrupted transaction's line says whether it was completed or only
// its torn record removed.
func TestFinishedSaysWhatBecameOfTheTransaction(t *testing.T) {
	in := &state.Intent{Verb: "slice set", PID: 7, At: "2026-03-01T12:00:00Z"}
	if got, want := Finished(in), `completed the interrupted "slice set" (pid 7, started 2026-03-01T12:00:00Z)`; got != want {
		t.Errorf("Finished = %q, want %q", got, want)
	}
	in.Torn = true
	if got, want := Finished(in), "removed the record of a transaction whose record is incomplete (nothing of it was applied)"; got != want {
		t.Errorf("Finished(torn) = %q, want %q", got, want)
	}
}
