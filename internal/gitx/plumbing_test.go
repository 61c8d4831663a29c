package gitx

import (
	"github.com/orc-state/orc-state/internal/environ"

	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// plumbingRepo is a repository of the given object format and its layout.
func plumbingRepo(t *testing.T, format string) (string, Layout) {
	t.Helper()
	dir := initRepo(t, "--object-format="+format)
	l, err := Discover(dir, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	return dir, l
}

var formats = []string{"sha1", "sha256"}

func TestCommitSnapshotRoundTrip(t *testing.T) {
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			ctx := context.Background()
			dir, l := plumbingRepo(t, format)
			files := Snapshot{
				"entry.json":                       []byte(`{"sessionId":"x"}`),
				"files/journal.jsonl":              []byte("{}\n"),
				"files/qa/report.json":             []byte("{\"ok\":true}\n"),
				"files/qa/deep/a b.txt":            []byte("spaces and\ttabs\n"),
				"files/\"quoted\" \\ é\ttab\nline": []byte("odd name\n"),
				"files/empty":                      {},
			}
			who := Identity{Name: "orc-state", Email: "orc-state@localhost", When: time.Unix(1_700_000_000, 0)}
			c1, err := l.CommitSnapshot(ctx, files, nil, "one", who)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"sha1": 40, "sha256": 64}[format]; len(c1) != want {
				t.Fatalf("commit id %q is not a %s id", c1, format)
			}
			// git agrees on the tree.
			ls := mustGit(t, dir, "ls-tree", "-r", "--name-only", c1)
			if got := strings.Join(strings.Fields(strings.ReplaceAll(ls, "\n", " ")), ","); !strings.Contains(ls, "files/qa/deep/a b.txt") || !strings.Contains(got, "entry.json") {
				t.Fatalf("ls-tree: %q", ls)
			}
			if got := mustGit(t, dir, "show", c1+":files/qa/report.json"); got != `{"ok":true}` {
				t.Fatalf("git show: %q", got)
			}
			// Deterministic: the same content, parents and date give the same id.
			again, err := l.CommitSnapshot(ctx, files, nil, "one", who)
			if err != nil || again != c1 {
				t.Fatalf("second commit %s, %v; want %s", again, err, c1)
			}

			o, err := l.OpenObjects(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			tree, err := o.ReadTree(c1)
			if err != nil {
				t.Fatal(err)
			}
			if !tree.Snapshot().Equal(files) {
				t.Fatalf("read back %v, want %v", tree.Snapshot(), files)
			}
			for p, b := range tree {
				if id := mustGit(t, dir, "rev-parse", c1+":"+p); id != b.ID {
					t.Errorf("%s: blob id %s, git says %s", p, b.ID, id)
				}
			}

			// A child; its parent is read back.
			files2 := Snapshot{"entry.json": files["entry.json"], "files/journal.jsonl": []byte("{}\n{}\n")}
			c2, err := l.CommitSnapshot(ctx, files2, []string{c1}, "two", who)
			if err != nil {
				t.Fatal(err)
			}
			parents, err := o.Parents(c2)
			if err != nil || len(parents) != 1 || parents[0] != c1 {
				t.Fatalf("parents of %s: %v, %v", c2, parents, err)
			}
			if ok, err := l.IsAncestor(ctx, c1, c2); err != nil || !ok {
				t.Fatalf("IsAncestor(c1, c2) = %v, %v", ok, err)
			}
			if ok, err := l.IsAncestor(ctx, c2, c1); err != nil || ok {
				t.Fatalf("IsAncestor(c2, c1) = %v, %v", ok, err)
			}
			missing := strings.Repeat("0", len(c1)-1) + "1"
			if _, _, _, err := o.Read(missing); !errors.Is(err, ErrMissing) {
				t.Fatalf("Read(missing) = %v", err)
			}
			// The reader still works after a miss.
			if typ, _, _, err := o.Read(c2); err != nil || typ != "commit" {
				t.Fatalf("Read after a miss: %s, %v", typ, err)
			}
		})
	}
}

func TestUpdateRefsAllOrNothing(t *testing.T) {
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			ctx := context.Background()
			dir, l := plumbingRepo(t, format)
			who := Identity{Name: "o", Email: "o@localhost", When: time.Unix(1, 0)}
			a := mustSnapshot(t, l, Snapshot{"a": []byte("a")}, nil, who)
			b := mustSnapshot(t, l, Snapshot{"b": []byte("b")}, nil, who)
			if err := l.UpdateRefs(ctx, []RefUpdate{{Name: "refs/orc/sessions/x", New: a, Check: true}}); err != nil {
				t.Fatal(err)
			}
			// A wrong old value refuses the whole transaction.
			err := l.UpdateRefs(ctx, []RefUpdate{
				{Name: "refs/orc/sessions/y", New: b, Check: true},
				{Name: "refs/orc/sessions/x", New: b, Old: b, Check: true},
			})
			if err == nil {
				t.Fatal("a stale old value was accepted")
			}
			refs, err := l.ListRefs(ctx, "refs/orc/")
			if err != nil {
				t.Fatal(err)
			}
			if len(refs) != 1 || refs["refs/orc/sessions/x"] != a {
				t.Fatalf("refs after a refused transaction: %v", refs)
			}
			if err := l.UpdateRefs(ctx, []RefUpdate{{Name: "refs/orc/sessions/x", New: b, Old: a, Check: true}, {Name: "refs/orc/sessions/z", New: a}}); err != nil {
				t.Fatal(err)
			}
			if got := mustGit(t, dir, "rev-parse", "refs/orc/sessions/x"); got != b {
				t.Fatalf("x is %s, want %s", got, b)
			}
			if err := l.UpdateRefs(ctx, []RefUpdate{{Name: "refs/orc/sessions/z", Old: a, Check: true}}); err != nil {
				t.Fatal(err)
			}
			if refs, _ := l.ListRefs(ctx, "refs/orc/"); len(refs) != 1 {
				t.Fatalf("z not deleted: %v", refs)
			}
		})
	}
}

func TestPushCompareAndSwap(t *testing.T) {
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			ctx := context.Background()
			remote := tempDir(t)
			mustGit(t, remote, "init", "-q", "--bare", "--object-format="+format)
			_, l := plumbingRepo(t, format)
			who := Identity{Name: "o", Email: "o@localhost", When: time.Unix(1, 0)}
			a := mustSnapshot(t, l, Snapshot{"a": []byte("a")}, nil, who)
			b := mustSnapshot(t, l, Snapshot{"b": []byte("b")}, []string{a}, who)
			c := mustSnapshot(t, l, Snapshot{"c": []byte("c")}, []string{a}, who)

			res, err := l.Push(ctx, "file://"+remote, []PushUpdate{
				{Ref: "refs/orc/sessions/x", Commit: a},
				{Ref: "refs/orc/sessions/y", Commit: a},
			})
			if err != nil || len(res) != 2 || !res[0].OK || !res[1].OK {
				t.Fatalf("first push: %+v, %v", res, err)
			}
			// x moves on a; y's push expects it absent: y alone is refused.
			res, err = l.Push(ctx, remote, []PushUpdate{
				{Ref: "refs/orc/sessions/x", Commit: b, Expect: a},
				{Ref: "refs/orc/sessions/y", Commit: c},
			})
			if err != nil || !res[0].OK || res[1].OK || res[1].Reason != "stale info" {
				t.Fatalf("second push: %+v, %v", res, err)
			}
			if got := mustGit(t, remote, "rev-parse", "refs/orc/sessions/x", "refs/orc/sessions/y"); got != b+"\n"+a {
				t.Fatalf("remote refs: %q", got)
			}
			// The loser of a race: expects a, the remote is at b.
			res, err = l.Push(ctx, remote, []PushUpdate{{Ref: "refs/orc/sessions/x", Commit: c, Expect: a}})
			if err != nil || res[0].OK {
				t.Fatalf("lost race accepted: %+v, %v", res, err)
			}
			// No such remote: an error, no result.
			if _, err := l.Push(ctx, remote+"-nowhere", []PushUpdate{{Ref: "refs/orc/sessions/x", Commit: c}}); err == nil {
				t.Fatal("push to a missing remote succeeded")
			}
			// Fetch brings the remote's refs and prunes the ones it lost.
			if err := l.Fetch(ctx, remote, "+refs/orc/sessions/*:refs/orc/remotes/r/*"); err != nil {
				t.Fatal(err)
			}
			mustGit(t, remote, "update-ref", "-d", "refs/orc/sessions/y")
			if err := l.Fetch(ctx, remote, "+refs/orc/sessions/*:refs/orc/remotes/r/*"); err != nil {
				t.Fatal(err)
			}
			refs, _ := l.ListRefs(ctx, "refs/orc/remotes/")
			if len(refs) != 1 || refs["refs/orc/remotes/r/x"] != b {
				t.Fatalf("tracking refs: %v", refs)
			}
		})
	}
}

func TestRejection(t *testing.T) {
	for summary, want := range map[string]string{
		"[rejected] (stale info)":                       "stale info",
		"[rejected] (non-fast-forward)":                 "non-fast-forward",
		"[remote rejected] (pre-receive hook declined)": "remote rejected: pre-receive hook declined",
		"[remote failure]":                              "remote failure",
	} {
		if got := rejection(summary); got != want {
			t.Errorf("rejection(%q) = %q, want %q", summary, got, want)
		}
	}
}

func mustSnapshot(t *testing.T, l Layout, files Snapshot, parents []string, who Identity) string {
	t.Helper()
	c, err := l.CommitSnapshot(context.Background(), files, parents, "test", who)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
