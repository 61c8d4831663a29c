package gitx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// ListTree lists what ReadTree reads, paths, ids and kinds, without the
// blobs, in both object formats; ObjectSizes gives each blob's size
// without its content; a commit that is missing or no commit is told
// apart from a failing git.
func TestListTreeAndSizesReadNoBlob(t *testing.T) {
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			ctx := context.Background()
			dir, l := plumbingRepo(t, format)
			files := Snapshot{
				"entry.json":           []byte(`{"sessionId":"x"}`),
				"files/journal.jsonl":  []byte("{}\n"),
				"files/qa/report.json": []byte("{\"ok\":true}\n"),
				"files/empty":          {},
			}
			who := Identity{Name: "orc-state", Email: "orc-state@localhost", When: time.Unix(1_700_000_000, 0)}
			c, err := l.CommitSnapshot(ctx, files, nil, "one", who)
			if err != nil {
				t.Fatal(err)
			}
			// A symlink and a gitlink beside the files, listed by kind.
			env := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
			entryBlob := mustGit(t, dir, "rev-parse", c+":entry.json")
			for _, args := range [][]string{
				{"read-tree", c},
				{"update-index", "--add", "--cacheinfo", "120000," + entryBlob + ",files/link"},
				{"update-index", "--add", "--cacheinfo", "160000," + c + ",files/sub"},
			} {
				if _, err := runGit(t, dir, env, args...); err != nil {
					t.Fatal(err)
				}
			}
			tree, err := runGit(t, dir, env, "write-tree")
			if err != nil {
				t.Fatal(err)
			}
			c = mustGit(t, dir, "commit-tree", tree, "-m", "kinds")
			files["files/link"] = files["entry.json"]
			o, err := l.OpenObjects(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			entries, err := o.ListTree(c)
			if err != nil {
				t.Fatal(err)
			}
			full, err := o.ReadTree(c)
			if err != nil {
				t.Fatal(err)
			}
			var paths, ids []string
			for _, e := range entries {
				paths = append(paths, e.Path)
				ids = append(ids, e.ID)
				if b := full[e.Path]; b.ID != e.ID || b.Mode != e.Mode {
					t.Errorf("%s: listed %s %q, read %s %q", e.Path, e.ID, e.Mode, b.ID, b.Mode)
				}
			}
			if !sort.StringsAreSorted(paths) || len(paths) != len(files)+1 {
				t.Errorf("listed %v, want the %d files and the gitlink in order", paths, len(files))
			}
			sizes, err := l.ObjectSizes(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Mode == "gitlink" {
					if e.Path != "files/sub" {
						t.Errorf("%s is listed as a gitlink", e.Path)
					}
					continue
				}
				if want := map[string]string{"files/link": "symlink"}[e.Path]; e.Mode != want {
					t.Errorf("%s: mode %q, want %q", e.Path, e.Mode, want)
				}
				if got := sizes[e.ID]; got.Type != "blob" || got.Size != int64(len(files[e.Path])) {
					t.Errorf("%s: size %+v, want a blob of %d bytes", e.Path, got, len(files[e.Path]))
				}
			}
			if _, err := o.ListTree(full["entry.json"].ID); !errors.Is(err, ErrBadTree) {
				t.Errorf("ListTree of a blob: %v, want ErrBadTree", err)
			}
			missing := map[string]string{"sha1": "0123456789012345678901234567890123456789"}[format]
			if missing == "" {
				missing = "0123456789012345678901234567890123456789012345678901234567890123"
			}
			if _, err := o.ListTree(missing); !errors.Is(err, ErrMissing) {
				t.Errorf("ListTree of a missing commit: %v, want ErrMissing", err)
			}
			if sizes, err := l.ObjectSizes(ctx, []string{missing}); err != nil || len(sizes) != 0 {
				t.Errorf("ObjectSizes of a missing object: %v, %v; want none", sizes, err)
			}
		})
	}
}

// ReadMany answers every request in order, a missing object as
// ErrMissing among the others, with more requests and answers than a
// pipe holds (no deadlock: the requests are written while the answers
// are read).
func TestReadManyAnswersInOrder(t *testing.T) {
	ctx := context.Background()
	_, l := plumbingRepo(t, "sha1")
	files := Snapshot{}
	for i := range 3000 {
		files[fmt.Sprintf("files/f%04d", i)] = []byte(strings.Repeat("x", i%50) + fmt.Sprint(i))
	}
	who := Identity{Name: "orc-state", Email: "orc-state@localhost", When: time.Unix(1_700_000_000, 0)}
	c, err := l.CommitSnapshot(ctx, files, nil, "many", who)
	if err != nil {
		t.Fatal(err)
	}
	o, err := l.OpenObjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	entries, err := o.ListTree(c)
	if err != nil || len(entries) != len(files) {
		t.Fatalf("ListTree: %d entries, %v", len(entries), err)
	}
	ids := []string{}
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	missing := "0123456789012345678901234567890123456789"
	ids = append(ids[:10], append([]string{missing}, ids[10:]...)...)
	seen := 0
	err = o.ReadMany(ids, func(i int, typ, id string, data []byte, err error) {
		seen++
		if i == 10 {
			if !errors.Is(err, ErrMissing) {
				t.Errorf("answer 10: %v, want ErrMissing", err)
			}
			return
		}
		k := i
		if i > 10 {
			k = i - 1
		}
		e := entries[k]
		if err != nil || typ != "blob" || id != e.ID || string(data) != string(files[e.Path]) {
			t.Errorf("answer %d: %s %s %q %v; want %s's blob", i, typ, id, data, err, e.Path)
		}
	})
	if err != nil || seen != len(ids) {
		t.Fatalf("ReadMany: %d answers, %v", seen, err)
	}
	// The reader still works after it.
	if _, _, _, err := o.Read(c); err != nil {
		t.Fatal(err)
	}
}
