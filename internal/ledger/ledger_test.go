package ledger

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/slices"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newSession is a state dir holding session main with a ledger of three
// independent slices.
func newSession(t *testing.T) *state.Dir {
	t.Helper()
	seeding := statetest.Seeding{Clock: func() time.Time { return t0 }, Ledger: `{"slices":[{"id":1},{"id":2},{"id":3}]}`}
	return seeding.Seed(t, t.TempDir(), statetest.Entry("main", t0))
}

func update(t *testing.T, d *state.Dir, fn func(tx *state.Tx) error) {
	t.Helper()
	if err := d.Update(context.Background(), state.Options{Verb: "test", Actor: "test", LockTimeout: time.Second}, fn); err != nil {
		t.Fatal(err)
	}
}

func claimedBy(t *testing.T, d *state.Dir, id string) string {
	t.Helper()
	data, err := d.ReadFile("main", state.LedgerFile)
	if err != nil {
		t.Fatal(err)
	}
	l, err := slices.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := l.Get(id)
	return v.ClaimedBy
}

// A claim takes the first ready slice and names the agent's other live
// claims; releasing an unprinted claim undoes only a claim still as it
// was made.
func TestClaimThenUnclaimOnlyWhatWasMade(t *testing.T) {
	d := newSession(t)
	var first, second Claimed
	update(t, d, func(tx *state.Tx) (err error) {
		first, err = Claim(tx, "main", "agent-a", t0, 30*time.Minute)
		return err
	})
	update(t, d, func(tx *state.Tx) (err error) {
		second, err = Claim(tx, "main", "agent-a", t0, 30*time.Minute)
		return err
	})
	if first.ID != "1" || second.ID != "2" || len(first.Held) != 0 || len(second.Held) != 1 || second.Held[0].ID != "1" {
		t.Fatalf("claims %s (held %v), %s (held %v)", first.ID, first.Held, second.ID, second.Held)
	}
	if len(second.View) == 0 {
		t.Fatal("the claim gives no JSON of the slice")
	}
	renewed := first.ClaimResult
	renewed.Until = renewed.Until.Add(time.Minute) // not the claim this run made
	update(t, d, func(tx *state.Tx) error { return Unclaim(tx, "main", renewed, "agent-a", t0) })
	if got := claimedBy(t, d, "1"); got != "agent-a" {
		t.Fatalf("a claim that changed was released: held by %q", got)
	}
	update(t, d, func(tx *state.Tx) error { return Unclaim(tx, "main", first.ClaimResult, "agent-a", t0) })
	if got := claimedBy(t, d, "1"); got != "" {
		t.Fatalf("slice 1 is still held by %q", got)
	}
	if got := claimedBy(t, d, "2"); got != "agent-a" {
		t.Fatalf("slice 2 is held by %q", got)
	}
}

// A session without a ledger is exit 1 with the way to make one.
func TestReadWithoutALedger(t *testing.T) {
	d := newSession(t)
	err := d.Update(context.Background(), state.Options{Verb: "test", Actor: "test", LockTimeout: time.Second}, func(tx *state.Tx) error {
		tx.RemoveFile(filepath.Join("main", "files", state.LedgerFile))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	update(t, d, func(tx *state.Tx) error {
		if _, err := Read(tx, "main"); err == nil {
			t.Error("a missing ledger was read")
		}
		return nil
	})
}

// A move is journaled with what it did; the same move again changes
// nothing and writes nothing.
func TestSetJournalsAMoveOnce(t *testing.T) {
	d := newSession(t)
	lines := func() []journal.Entry {
		t.Helper()
		entries, _, err := journal.Read(d.File("main", journal.FileName))
		if err != nil {
			t.Fatal(err)
		}
		return entries
	}
	u := slices.Update{Status: "skipped", Note: "not needed", Now: t0}
	update(t, d, func(tx *state.Tx) error {
		res, err := Set(tx, "main", "3", u, "")
		if err == nil && !res.Changed {
			t.Error("the move changed nothing")
		}
		return err
	})
	n := len(lines())
	var args struct{ ID, From, To string }
	if err := json.Unmarshal(lines()[n-1].Args, &args); err != nil || args.ID != "3" || args.From != "pending" || args.To != "skipped" {
		t.Fatalf("journal line %s (%v)", lines()[n-1].Args, err)
	}
	update(t, d, func(tx *state.Tx) error {
		res, err := Set(tx, "main", "3", u, "")
		if err == nil && res.Changed {
			t.Error("the same move again changed the slice")
		}
		return err
	})
	if len(lines()) != n {
		t.Fatalf("the same move again wrote %d journal line(s)", len(lines())-n)
	}
}
