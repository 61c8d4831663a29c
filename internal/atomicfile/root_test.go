package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// rootFixture is a root folder "state" beside a folder "outside", with
// a link state/lnk → outside and a file outside/f: what a planted record
// or a hostile folder aims at.
func rootFixture(t *testing.T) (r Root, outside string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	base := t.TempDir()
	r = Root{Dir: filepath.Join(base, "state")}
	outside = filepath.Join(base, "outside")
	for _, d := range []string{r.Dir, filepath.Join(r.Dir, "sess", "files"), filepath.Join(outside, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(outside, "f"), filepath.Join(outside, "sub", "g"), filepath.Join(r.Dir, "orc.json"), filepath.Join(r.Dir, "sess", "files", "journal.jsonl")} {
		if err := os.WriteFile(f, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(r.Dir, "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "f"), filepath.Join(r.Dir, "flink")); err != nil {
		t.Fatal(err)
	}
	return r, outside
}

// Every step refuses a path that leaves the root or passes through a
// link, in its middle or at its end, and changes nothing outside: with
// openat2 and with the lstat walk it falls back to.
func TestRootRefusesEscapes(t *testing.T) {
	for _, walk := range []bool{false, true} {
		name := "openat2"
		if walk {
			name = "walk"
		}
		t.Run(name, func(t *testing.T) {
			if walk {
				forceWalk(t)
			}
			tests := []struct {
				name string
				op   func(r Root) error
				want error
			}{
				{"rename to ..", func(r Root) error { return r.Rename("orc.json", "../outside/f") }, ErrOutside},
				{"rename to absolute", func(r Root) error { return r.Rename("orc.json", "/tmp/x") }, ErrOutside},
				{"rename from ..", func(r Root) error { return r.Rename("../outside/f", "orc.json") }, ErrOutside},
				{"rename through a link", func(r Root) error { return r.Rename("orc.json", "lnk/f") }, ErrSymlink},
				{"rename over a link", func(r Root) error { return r.Rename("orc.json", "flink") }, ErrSymlink},
				{"move a folder out", func(r Root) error { return r.Rename("sess", "../../X/main") }, ErrOutside},
				{"remove-all through a link", func(r Root) error { return r.RemoveAll("lnk/sub") }, ErrSymlink},
				{"remove through a link", func(r Root) error { return r.Remove("lnk/f") }, ErrSymlink},
				{"append through a link", func(r Root) error { _, err := r.OpenAppend("lnk/f"); return err }, ErrSymlink},
				{"append to a link", func(r Root) error { _, err := r.OpenAppend("flink"); return err }, ErrSymlink},
				{"stage through a link", func(r Root) error { _, err := r.Stage("lnk/new", []byte("x"), 0o644); return err }, ErrSymlink},
				{"create through a link", func(r Root) error { return r.Create("lnk/new", []byte("x"), 0o644) }, ErrSymlink},
				{"mkdir through a link", func(r Root) error { _, err := r.MkdirAll("lnk/new/deeper"); return err }, ErrSymlink},
				{"read through a link", func(r Root) error { _, err := r.ReadFile("lnk/f"); return err }, ErrSymlink},
				{"read a link", func(r Root) error { _, err := r.ReadFile("flink"); return err }, ErrSymlink},
				{"sync through a link", func(r Root) error { return r.SyncDir("lnk/sub") }, ErrSymlink},
				{"probe through a link", func(r Root) error { return r.Probe("lnk") }, ErrSymlink},
				{"empty path", func(r Root) error { return r.Remove("") }, ErrOutside},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					r, outside := rootFixture(t)
					err := tt.op(r)
					if !errors.Is(err, tt.want) {
						t.Fatalf("err = %v, want %v", err, tt.want)
					}
					for _, f := range []string{"f", "sub/g"} {
						if got := mustRead(t, filepath.Join(outside, f)); string(got) != "keep" {
							t.Errorf("outside/%s = %q", f, got)
						}
					}
					if got := entries(t, outside); len(got) != 2 {
						t.Errorf("outside holds %q", got)
					}
					if got := mustRead(t, filepath.Join(r.Dir, "orc.json")); string(got) != "keep" {
						t.Errorf("orc.json = %q", got)
					}
				})
			}
		})
	}
}

// Inside the root the steps do what the path-based ones do: a staged
// file committed, an append, a folder moved, a tree removed (a link in
// it removed, not followed), a missing path no error.
func TestRootSteps(t *testing.T) {
	for _, walk := range []bool{false, true} {
		t.Run(map[bool]string{false: "openat2", true: "walk"}[walk], func(t *testing.T) {
			if walk {
				forceWalk(t)
			}
			r, outside := rootFixture(t)
			created, err := r.MkdirAll(filepath.Join("new", "files"))
			if err != nil || len(created) != 2 || created[0] != "new" {
				t.Fatalf("MkdirAll = %q, %v", created, err)
			}
			tmp, err := r.Stage(filepath.Join("new", "files", "checkpoint.md"), []byte("cp"), 0o640)
			if err != nil {
				t.Fatal(err)
			}
			if !IsTemp(tmp.Path) || filepath.Dir(tmp.Path) != filepath.Join(r.Dir, "new", "files") {
				t.Fatalf("temp %s", tmp.Path)
			}
			if err := tmp.Commit(); err != nil {
				t.Fatal(err)
			}
			if got, err := r.ReadFile(filepath.Join("new", "files", "checkpoint.md")); string(got) != "cp" || err != nil {
				t.Fatalf("read %q %v", got, err)
			}
			if m := mode(t, filepath.Join(r.Dir, "new", "files", "checkpoint.md")); m.Perm() != 0o640 {
				t.Errorf("mode %v", m)
			}
			a, err := r.OpenAppend(filepath.Join("sess", "files", "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Append([]byte("+more")); err != nil {
				t.Fatal(err)
			}
			a.Close()
			if got, _ := r.ReadRange(filepath.Join("sess", "files", "journal.jsonl"), 4, 100); string(got) != "+more" {
				t.Fatalf("ReadRange = %q", got)
			}
			if err := os.Symlink(outside, filepath.Join(r.Dir, "sess", "files", "out")); err != nil {
				t.Fatal(err)
			}
			if err := r.Rename("sess", "moved"); err != nil {
				t.Fatal(err)
			}
			if err := r.RemoveAll("moved"); err != nil {
				t.Fatal(err)
			}
			if got := entries(t, outside); len(got) != 2 {
				t.Fatalf("outside holds %q after removing a tree with a link to it", got)
			}
			for _, rel := range []string{"moved", "missing", filepath.Join("missing", "deeper")} {
				if err := r.RemoveAll(rel); err != nil {
					t.Errorf("RemoveAll(%s) = %v", rel, err)
				}
				if err := r.Remove(rel); err != nil {
					t.Errorf("Remove(%s) = %v", rel, err)
				}
			}
			if err := r.Create("rec", []byte("r"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := r.Create("rec", []byte("r"), 0o644); !errors.Is(err, os.ErrExist) {
				t.Fatalf("second Create = %v", err)
			}
			if err := r.Probe("."); err != nil {
				t.Fatal(err)
			}
			if err := r.SyncDir("."); err != nil {
				t.Fatal(err)
			}
			if got := entries(t, r.Dir); len(got) != 5 { // flink lnk new orc.json rec
				t.Fatalf("root holds %q", got)
			}
		})
	}
}

// Every step of a write beneath the root, failed in turn, leaves the old
// content and no temp file, as the path-based steps do; MkdirAll's
// steps, failed in turn, leave at most the folders it reports.
func TestRootEveryStepFails(t *testing.T) {
	for _, walk := range []bool{false, true} {
		t.Run(map[bool]string{false: "openat2", true: "walk"}[walk], func(t *testing.T) {
			if walk {
				forceWalk(t)
			}
			r := Root{Dir: t.TempDir()}
			write := func() error {
				tmp, err := r.Stage("orc.json", []byte("new"), 0o644)
				if err != nil {
					return err
				}
				if err := tmp.Commit(); err != nil {
					_ = tmp.Discard()
					return err
				}
				return r.SyncDir(".")
			}
			if err := os.WriteFile(filepath.Join(r.Dir, "orc.json"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			steps := failAt(t, 0, nil)
			if err := write(); err != nil {
				t.Fatal(err)
			}
			total := *steps
			if total != 5 { // create, write, fsync, rename, fsync-dir
				t.Fatalf("%d steps, want 5", total)
			}
			for n := 1; n <= total; n++ {
				Fault = nil
				if err := os.WriteFile(filepath.Join(r.Dir, "orc.json"), []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
				failAt(t, n, errSharing)
				if err := write(); !errors.Is(err, errSharing) {
					t.Fatalf("step %d: err = %v", n, err)
				}
				want := "old"
				if n == total {
					want = "new"
				}
				if got := mustRead(t, filepath.Join(r.Dir, "orc.json")); string(got) != want {
					t.Fatalf("step %d: %q, want %q", n, got, want)
				}
				if got := entries(t, r.Dir); len(got) != 1 {
					t.Fatalf("step %d: root holds %q", n, got)
				}
			}
			Fault = nil
			steps = failAt(t, 0, nil)
			if _, err := r.MkdirAll(filepath.Join("a", "b")); err != nil {
				t.Fatal(err)
			}
			total = *steps // mkdir, fsync-dir, twice
			if total != 4 {
				t.Fatalf("MkdirAll took %d steps, want 4", total)
			}
			for n := 1; n <= total; n++ {
				Fault = nil
				_ = os.RemoveAll(filepath.Join(r.Dir, "a"))
				failAt(t, n, errSharing)
				created, err := r.MkdirAll(filepath.Join("a", "b"))
				if !errors.Is(err, errSharing) {
					t.Fatalf("step %d: err = %v", n, err)
				}
				for _, c := range created {
					if _, err := os.Stat(filepath.Join(r.Dir, c)); err != nil {
						t.Fatalf("step %d: reported %s, which is missing", n, c)
					}
				}
			}
		})
	}
}
