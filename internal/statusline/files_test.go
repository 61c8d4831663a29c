package statusline

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func openTemp(t *testing.T) *Files {
	t.Helper()
	f, err := OpenFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestOpenFilesPrivate(t *testing.T) {
	tmp := t.TempDir()
	f, err := OpenFiles(tmp)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
	if _, err := OpenFiles(tmp); err != nil {
		t.Errorf("reopening: %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	// Someone else's directory, or one others can enter, or a link: refused.
	open := t.TempDir()
	if err := os.Mkdir(filepath.Join(open, privateName()), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(open, privateName()), 0o755)
	if _, err := OpenFiles(open); err == nil {
		t.Error("a directory with mode 0755 was used")
	}
	linked := t.TempDir()
	if err := os.Symlink(f.Path(), filepath.Join(linked, privateName())); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFiles(linked); err == nil {
		t.Error("a symbolic link to a private directory was used")
	}
	file := t.TempDir()
	if err := os.WriteFile(filepath.Join(file, privateName()), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFiles(file); err == nil {
		t.Error("a regular file was used as the directory")
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"6f1d2c9e-8b4a-4f27-a3d5-91c0e7b25a4f": "6f1d2c9e-8b4a-4f27-a3d5-91c0e7b25a4f",
		"../../etc/passwd":                     "etcpasswd",
		"":                                     "",
		"///":                                  "",
		"a b\x00c":                             "abc",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
	if n := len(Key(string(make([]byte, 500)) + "x")); n > 80 {
		t.Errorf("key of %d bytes", n)
	}
}

func TestPlaceAges(t *testing.T) {
	f := openTemp(t)
	at := time.Unix(1_800_000_000, 0)
	rec := PlaceRecord{At: at.UnixMilli(), Dir: "/r", Branch: "main", Head: "abc", Known: true, Dirty: true}
	if err := f.WritePlace("k", rec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name              string
		dir, branch, head string
		now               time.Time
		want              Age
	}{
		{"fresh", "/r", "main", "abc", at.Add(PlaceTTL), Fresh},
		{"stale", "/r", "main", "abc", at.Add(PlaceTTL + time.Millisecond), Stale},
		{"too old", "/r", "main", "abc", at.Add(PlaceStaleMax + time.Millisecond), Missing},
		{"from the future", "/r", "main", "abc", at.Add(-time.Second), Missing},
		{"another directory", "/s", "main", "abc", at, Missing},
		{"another branch", "/r", "dev", "abc", at, Missing},
		{"a new commit", "/r", "main", "abd", at, Missing},
	} {
		got, age := f.ReadPlace("k", tc.dir, tc.branch, tc.head, tc.now)
		if age != tc.want {
			t.Errorf("%s: age %v, want %v", tc.name, age, tc.want)
		}
		if age != Missing && (!got.Dirty || !got.Known) {
			t.Errorf("%s: record %+v", tc.name, got)
		}
	}
	if _, age := f.ReadPlace("other", "/r", "main", "abc", at); age != Missing {
		t.Error("another key read the record")
	}
	os.WriteFile(filepath.Join(f.Path(), "place-bad.json"), []byte("{not json"), 0o600)
	if _, age := f.ReadPlace("bad", "/r", "", "", at); age != Missing {
		t.Error("a torn record was used")
	}
}

func TestClaimRefresh(t *testing.T) {
	f := openTemp(t)
	now := time.Now()
	if !f.ClaimRefresh("k", now) {
		t.Fatal("first claim refused")
	}
	if f.ClaimRefresh("k", now) {
		t.Error("a second claim while the first runs")
	}
	if !f.ClaimRefresh("j", now) {
		t.Error("another session's claim refused")
	}
	// A refresher that died: its claim is taken over after RefreshBound.
	if !f.ClaimRefresh("k", now.Add(RefreshBound+time.Second)) {
		t.Error("a dead refresher's claim was not taken over")
	}
	f.EndRefresh("k")
	if !f.ClaimRefresh("k", now) {
		t.Error("claim refused after EndRefresh")
	}
}

func TestLevelAndWarnings(t *testing.T) {
	f := openTemp(t)
	if _, ok := f.ReadLevel("s"); ok {
		t.Fatal("a level before any render")
	}
	red := Level{At: 10, Raw: 84, Effective: 84, Tier: "red", Session: "main"}
	if err := f.WriteLevel("s", red); err != nil {
		t.Fatal(err)
	}
	got, ok := f.ReadLevel("s")
	if !ok || got.Schema != 1 || got.Effective != 84 || got.Session != "main" {
		t.Fatalf("ReadLevel = %+v, %v", got, ok)
	}
	if f.Warned("s", Red) {
		t.Error("warned before any warning")
	}
	if !f.MarkWarned("s", Red) || f.MarkWarned("s", Red) {
		t.Error("MarkWarned must succeed exactly once per tier")
	}
	if !f.Warned("s", Red) || f.Warned("s", Critical) || f.Warned("t", Red) {
		t.Error("Warned mixes tiers or sessions")
	}
	if !f.MarkWarned("s", Critical) {
		t.Error("critical after red refused")
	}
	// Still red: the warnings stay. Below red (after a compaction): re-armed.
	f.WriteLevel("s", Level{At: 11, Raw: 88, Effective: 88, Tier: "red", Session: "main"})
	if !f.Warned("s", Red) || !f.Warned("s", Critical) {
		t.Error("a red reading re-armed the warnings")
	}
	f.WriteLevel("s", Level{At: 12, Raw: 20, Effective: 20, Tier: "green", Session: "main"})
	if f.Warned("s", Red) || f.Warned("s", Critical) {
		t.Error("a green reading did not re-arm the warnings")
	}
	if fi, err := os.Stat(filepath.Join(f.Path(), "context-s.json")); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("context file: %v %v", fi, err)
	}
}

func TestSweep(t *testing.T) {
	f := openTemp(t)
	now := time.Now()
	old, fresh := filepath.Join(f.Path(), "place-old.json"), filepath.Join(f.Path(), "place-new.json")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(old, now.Add(-SweepAfter-time.Minute), now.Add(-SweepAfter-time.Minute)); err != nil {
		t.Fatal(err)
	}
	f.Sweep(now)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Error("a file older than a day was kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh file was swept")
	}
}

// A render that reads the level already recorded writes nothing while the
// record is under LevelRewriteAfter old; any change, an older record, a
// clock that went back or a damaged file is written.
func TestWriteLevelSkipsTheSameReading(t *testing.T) {
	f := openTemp(t)
	path := filepath.Join(f.Path(), "context-s.json")
	base := Level{At: 1000, Raw: 40, Effective: 45, Tier: "yellow", Session: "main"}
	rewriteAfter := int64(LevelRewriteAfter / time.Second)
	for _, tc := range []struct {
		name    string
		change  func(l *Level)
		written bool
	}{
		{"same reading, a second later", func(l *Level) { l.At++ }, false},
		{"same reading, just under the rewrite age", func(l *Level) { l.At += rewriteAfter - 1 }, false},
		{"same reading, at the rewrite age", func(l *Level) { l.At += rewriteAfter }, true},
		{"raw changed", func(l *Level) { l.At++; l.Raw++ }, true},
		{"effective changed", func(l *Level) { l.At++; l.Effective++ }, true},
		{"tier changed", func(l *Level) { l.At++; l.Tier = "red" }, true},
		{"session changed", func(l *Level) { l.At++; l.Session = "" }, true},
		{"the clock went back", func(l *Level) { l.At-- }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := f.WriteLevel("s", base); err != nil {
				t.Fatal(err)
			}
			next := base
			tc.change(&next)
			if err := f.WriteLevel("s", next); err != nil {
				t.Fatal(err)
			}
			got, ok := f.ReadLevel("s")
			if !ok {
				t.Fatal("no level after WriteLevel")
			}
			want := base
			if tc.written {
				want = next
			}
			want.Schema = 1
			if got != want {
				t.Fatalf("recorded %+v, want %+v", got, want)
			}
		})
	}
	// A damaged record is replaced, not kept.
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteLevel("s", base); err != nil {
		t.Fatal(err)
	}
	if got, ok := f.ReadLevel("s"); !ok || got.At != base.At {
		t.Fatalf("damaged record not replaced: %+v %v", got, ok)
	}
}
