package removal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

var opts = state.Options{Verb: "test", Actor: "cli", LockTimeout: time.Second}

func entry(id, status string, updated time.Time) registry.Session {
	e := statetest.Entry(id, updated)
	e.Status = status
	return e
}

// seeded is a state dir outside any repository (its archives are folders
// of .orc/.archive) holding the entries, each with its mirror.
func seeded(t *testing.T, entries ...registry.Session) *state.Dir {
	t.Helper()
	return statetest.Seed(t, t.TempDir(), entries...)
}

// run is the Run of a verb on d at now, outside any repository.
func run(d *state.Dir, now time.Time) Run {
	return Run{
		Verb: "test", Actor: "cli",
		Stamp: func() string { return registry.Stamp(now) },
		Now:   func() time.Time { return now },
		Where: selection.Where{
			Getenv:  func(string) string { return "" },
			Dir:     func() (*state.Dir, error) { return d, nil },
			Binding: func() (*binding.Binding, error) { return nil, nil },
		},
		CheckActor: func() error { return nil },
		Update: func(d *state.Dir, o state.Options, fn func(tx *state.Tx) error) error {
			o.Verb, o.Actor, o.LockTimeout = opts.Verb, opts.Actor, opts.LockTimeout
			return d.Update(context.Background(), o, fn)
		},
	}
}

// A removed session is kept in an archive first, and its restore brings
// back the entry and every file of its folder byte for byte.
func TestRemovedSessionComesBackByteForByte(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d := seeded(t, entry("feat-a", "completed", now), entry("feat-b", "completed", now))
	before := statetest.Contents(t, filepath.Join(d.Path, "feat-a"))
	r := run(d, now)
	done, err := r.Remove(selection.ByID("feat-a"), false)
	if err != nil {
		t.Fatal(err)
	}
	if done.Session != "feat-a" || !strings.Contains(done.Archive, "feat-a") {
		t.Fatalf("Remove = %+v; want feat-a and the archive that keeps it", done)
	}
	if _, err := os.Stat(filepath.Join(d.Path, "feat-a")); !os.IsNotExist(err) {
		t.Fatalf("the folder is still there: %v", err)
	}
	back, err := r.Restore("feat-a", "")
	if err != nil {
		t.Fatal(err)
	}
	if back.Archive != done.Archive || len(back.Notes) != 0 {
		t.Fatalf("Restore = %+v; want the archive %s, no notes", back, done.Archive)
	}
	after := statetest.Contents(t, filepath.Join(d.Path, "feat-a"))
	if len(after) != len(before) {
		t.Fatalf("restored %d files, had %d", len(after), len(before))
	}
	for p, want := range before {
		if after[p] != want {
			t.Errorf("%s restored as %q, was %q", p, after[p], want)
		}
	}
	reg, _, err := d.ReadRegistry()
	if err != nil || reg.Exact("feat-a") == nil || reg.Exact("feat-b") == nil {
		t.Fatalf("registry after restore: %v, %v", reg, err)
	}
}

// A live session (in_progress, paused) is removed only when forced, and a
// refused removal writes nothing, not even an archive.
func TestRemoveProtectsALiveSessionUnlessForced(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, c := range []struct {
		status  string
		force   bool
		removed bool
	}{
		{"in_progress", false, false}, {"paused", false, false},
		{"in_progress", true, true}, {"paused", true, true},
		{"completed", false, true}, {"abandoned", false, true},
	} {
		d := seeded(t, entry("s", c.status, now))
		before := statetest.Contents(t, d.Path)
		_, err := run(d, now).Remove(selection.ByID("s"), c.force)
		if c.removed {
			if err != nil {
				t.Errorf("%s, force %v: %v", c.status, c.force, err)
			}
			continue
		}
		if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), "refusing to remove a live session") {
			t.Errorf("%s, force %v: %v; want a refusal, exit 2", c.status, c.force, err)
		}
		if after := statetest.Contents(t, d.Path); len(after) != len(before) {
			t.Errorf("%s: a refused removal wrote %d files, had %d", c.status, len(after), len(before))
		}
	}
}

// A restore is refused, nothing written, while the key is live again; the
// archive stays for a later restore.
func TestRestoreRefusesWhileTheKeyIsLive(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d := seeded(t, entry("s", "completed", now))
	r := run(d, now)
	if _, err := r.Remove(selection.ByID("s"), false); err != nil {
		t.Fatal(err)
	}
	if err := d.Update(context.Background(), opts, func(tx *state.Tx) error {
		tx.Reg.Sessions = append(tx.Reg.Sessions, entry("s", "in_progress", now))
		tx.RegistryChanged()
		return tx.Mirror(&tx.Reg.Sessions[0])
	}); err != nil {
		t.Fatal(err)
	}
	before := statetest.Contents(t, d.Path)
	_, err := r.Restore("s", "")
	if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), "session s is live") {
		t.Fatalf("Restore = %v; want a refusal naming the live session", err)
	}
	after := statetest.Contents(t, d.Path)
	for p, want := range before {
		if after[p] != want {
			t.Errorf("a refused restore changed %s", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("a refused restore left %d files, had %d", len(after), len(before))
	}
	if _, err := r.Restore("nothing-like-it", ""); fault.Code(err) != fault.NotFound {
		t.Errorf("Restore of an id never archived = %v; want not found", err)
	}
}

// Cleanup's plan selects by status and age, in registry order, and keeps
// a live session unless forced; Clean removes what the plan removes.
func TestPlanSelectsByStatusAndAgeAndProtectsLive(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	old := now.Add(-40 * 24 * time.Hour)
	d := seeded(t, entry("done-old", "completed", old), entry("gave-up", "abandoned", old),
		entry("done-new", "completed", now), entry("working", "in_progress", old))
	for _, c := range []struct {
		name string
		sw   Sweep
		want string
	}{
		{"all completed", Sweep{AllCompleted: true},
			"remove done-old completed|remove gave-up abandoned|remove done-new completed"},
		{"older than 30d", Sweep{AllCompleted: true, MinAge: 30 * 24 * time.Hour},
			"remove done-old completed|remove gave-up abandoned"},
		{"named live", Sweep{Keys: []string{"working"}}, "keep working protected (in_progress)"},
		{"named live forced", Sweep{Keys: []string{"working"}, Force: true}, "remove working named"},
	} {
		plan, err := run(d, now).Plan(c.sw)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, r := range plan {
			got = append(got, r.Action+" "+r.Session+" "+r.Reason)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: plan %q, want %q", c.name, strings.Join(got, "|"), c.want)
		}
	}
	plan, err := run(d, now).Plan(Sweep{AllCompleted: true, MinAge: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	n, err := run(d, now).Clean(plan, false)
	if err != nil || n != 2 || plan[0].Archive == "" || plan[1].Archive == "" {
		t.Fatalf("Clean = %d, %v, plan %+v; want 2 removed, each with its archive", n, err, plan)
	}
	reg, _, _ := d.ReadRegistry()
	if len(reg.Sessions) != 2 || reg.Exact("done-new") == nil || reg.Exact("working") == nil {
		t.Fatalf("left %+v; want done-new and working", reg.Sessions)
	}
	all, err := run(d, now).List("")
	if err != nil || len(all) != 2 {
		t.Fatalf("List = %d archives, %v; want the 2 removed", len(all), err)
	}
}

// A removed session's archive older than the window is listed by the
// sweep and deleted only when asked to; a newer one stays.
func TestSweepArchivesDeletesOnlyWhenAsked(t *testing.T) {
	then := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d := seeded(t, entry("s", "completed", then))
	if _, err := run(d, then).Remove(selection.ByID("s"), false); err != nil {
		t.Fatal(err)
	}
	later := run(d, then.Add(48*time.Hour))
	for _, c := range []struct {
		age    time.Duration
		remove bool
		want   string
	}{
		{72 * time.Hour, true, ""}, // made within the window: kept
		{24 * time.Hour, false, "would delete"},
		{24 * time.Hour, true, "deleted"},
		{24 * time.Hour, false, ""}, // gone now
	} {
		rows, err := later.SweepArchives(nil, c.age, c.remove)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.Action)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("older than %v, remove %v: %q, want %q", c.age, c.remove, got, c.want)
		}
	}
}
