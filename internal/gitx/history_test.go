package gitx

import (
	"fmt"
	"strings"
	"testing"
)

// mergeHistory builds
//
//	m1 - m2 - m3 - merge - m4      (main)
//	 \            /
//	  f1 ------ f2                  (f)
//	      m2 - g1                   (g, never merged)
//
// with commits created in the order m1 f1 m2 f2 g1 m3 merge m4.
func mergeHistory(t *testing.T) (repo string, c map[string]string) {
	t.Helper()
	repo = initRepo(t)
	c = map[string]string{}
	c["m1"] = commitFile(t, repo, "m.txt", "1\n", "m1")
	mustGit(t, repo, "branch", "f")
	mustGit(t, repo, "checkout", "-q", "f")
	c["f1"] = commitFile(t, repo, "f.txt", "1\n", "f1")
	mustGit(t, repo, "checkout", "-q", "main")
	c["m2"] = commitFile(t, repo, "m.txt", "2\n", "m2")
	mustGit(t, repo, "checkout", "-q", "f")
	c["f2"] = commitFile(t, repo, "f.txt", "2\n", "f2")
	mustGit(t, repo, "checkout", "-q", "-b", "g", c["m2"])
	c["g1"] = commitFile(t, repo, "g.txt", "1\n", "g1")
	mustGit(t, repo, "checkout", "-q", "main")
	c["m3"] = commitFile(t, repo, "m.txt", "3\n", "m3")
	date := fmt.Sprintf("@%d +0000", 1_700_000_000+clock.Add(1)*60)
	if _, err := runGit(t, repo, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date},
		"merge", "-q", "--no-ff", "-m", "merge f", "f"); err != nil {
		t.Fatal(err)
	}
	c["merge"] = mustGit(t, repo, "rev-parse", "HEAD")
	c["m4"] = commitFile(t, repo, "m.txt", "4\n", "m4")
	return repo, c
}

func TestLogOrderMatchesGit(t *testing.T) {
	t.Parallel()
	repo, c := mergeHistory(t)
	r := mustOpen(t, repo)
	want := strings.Fields(mustGit(t, repo, "log", "--format=%H"))
	got, err := r.Log(100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Log returned %d commits, git log %d", len(got), len(want))
	}
	for i := range want {
		if got[i].SHA != want[i] {
			t.Errorf("Log[%d] = %s (%s), git log has %s", i, got[i].SHA[:8], got[i].Subject, want[i][:8])
		}
	}
	if got[0].SHA != c["m4"] || got[0].Subject != "m4" || got[1].Subject != "merge f" {
		t.Errorf("Log head = %+v, %+v", got[0], got[1])
	}
	wantTime := mustGit(t, repo, "log", "-1", "--format=%ct", c["m4"])
	if fmt.Sprint(got[0].When.Unix()) != wantTime {
		t.Errorf("When = %d, want committer time %s", got[0].When.Unix(), wantTime)
	}
	short, err := r.Log(3)
	if err != nil || len(short) != 3 || short[2].SHA != want[2] {
		t.Errorf("Log(3) = %+v, %v", short, err)
	}
	if none, err := r.Log(0); err != nil || len(none) != 0 {
		t.Errorf("Log(0) = %+v, %v", none, err)
	}
}

func TestResolveCommit(t *testing.T) {
	t.Parallel()
	repo, c := mergeHistory(t)
	head := c["m4"]
	tree := mustGit(t, repo, "rev-parse", "HEAD^{tree}")
	blob := mustGit(t, repo, "rev-parse", "HEAD:m.txt")
	mustGit(t, repo, "tag", "-a", "-m", "annotated", "v1")
	tag := mustGit(t, repo, "rev-parse", "v1")
	tests := []struct {
		name, claim, want string
	}{
		{"full", head, head},
		{"7-char prefix", head[:7], head},
		{"odd 9-char prefix", head[:9], head},
		{"uppercase full", strings.ToUpper(head), head},
		{"uppercase prefix", strings.ToUpper(head[:10]), head},
		{"older commit", c["f1"][:12], c["f1"]},
		{"6 chars", head[:6], ""},
		{"non-hex", "zzzzzzz", ""},
		{"hex with junk", head[:7] + "g", ""},
		{"41 chars", head + "0", ""},
		{"empty", "", ""},
		{"whitespace", " " + head[:7], ""},
		{"tree", tree, ""},
		{"tree prefix", tree[:8], ""},
		{"blob", blob, ""},
		{"annotated tag object", tag, ""},
		{"unknown full", strings.Repeat("0", 40), ""},
		{"unknown prefix", "0000000", ""},
		{"unicode", "éééééééé", ""},
	}
	check := func(t *testing.T, r *Repo) {
		for _, tc := range tests {
			full, ok := r.ResolveCommit(tc.claim)
			if full != tc.want || ok != (tc.want != "") {
				t.Errorf("%s: ResolveCommit(%q) = %q, %v; want %q", tc.name, tc.claim, full, ok, tc.want)
			}
		}
	}
	t.Run("loose", func(t *testing.T) { check(t, mustOpen(t, repo)) })
	mustGit(t, repo, "gc", "-q")
	t.Run("packed", func(t *testing.T) { check(t, mustOpen(t, repo)) })
}

func TestCommitsBetween(t *testing.T) {
	t.Parallel()
	repo, c := mergeHistory(t)
	r := mustOpen(t, repo)
	// Every ordered pair. The oracle is the parent graph printed by git:
	// count = |ancestors(h) \ ancestors(a)|, reachable = a ∈ ancestors(h).
	parents := map[string][]string{}
	for _, line := range strings.Split(mustGit(t, repo, "rev-list", "--all", "--parents"), "\n") {
		f := strings.Fields(line)
		parents[f[0]] = f[1:]
	}
	ancestors := func(x string) map[string]bool {
		seen := map[string]bool{}
		stack := []string{x}
		for len(stack) > 0 {
			y := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen[y] {
				seen[y] = true
				stack = append(stack, parents[y]...)
			}
		}
		return seen
	}
	for an, a := range c {
		for hn, h := range c {
			ancA, ancH := ancestors(a), ancestors(h)
			wantN := 0
			for x := range ancH {
				if !ancA[x] {
					wantN++
				}
			}
			n, reach, err := r.CommitsBetween(a, h)
			if err != nil {
				t.Errorf("CommitsBetween(%s, %s): %v", an, hn, err)
				continue
			}
			if n != wantN || reach != ancH[a] {
				t.Errorf("CommitsBetween(%s, %s) = %d, %v; want %d, %v", an, hn, n, reach, wantN, ancH[a])
			}
		}
	}
	// Spot checks straight against git.
	for _, p := range [][2]string{{"m1", "m4"}, {"f1", "merge"}, {"g1", "m4"}, {"m4", "g1"}} {
		want := mustGit(t, repo, "rev-list", "--count", c[p[0]]+".."+c[p[1]])
		if n, _, _ := r.CommitsBetween(c[p[0]], c[p[1]]); fmt.Sprint(n) != want {
			t.Errorf("CommitsBetween(%s, %s) = %d, git rev-list --count says %s", p[0], p[1], n, want)
		}
	}
	// Short claims and revisions.
	if n, reach, err := r.CommitsBetween(c["m1"][:7], "HEAD"); n != 6 || !reach || err != nil {
		t.Errorf("CommitsBetween(m1 short, HEAD) = %d, %v, %v; want 6, true", n, reach, err)
	}
	if n, reach, err := r.CommitsBetween("main", "g"); n != 1 || reach || err != nil {
		t.Errorf("CommitsBetween(main, g) = %d, %v, %v; want 1, false", n, reach, err)
	}
	for _, bad := range [][2]string{{"0000000", "HEAD"}, {"HEAD", "nope"}, {mustGit(t, repo, "rev-parse", "HEAD^{tree}"), "HEAD"}, {"", "HEAD"}} {
		if _, _, err := r.CommitsBetween(bad[0], bad[1]); err == nil {
			t.Errorf("CommitsBetween(%q, %q) succeeded", bad[0], bad[1])
		}
	}
}

func TestResolveCommitish(t *testing.T) {
	t.Parallel()
	repo, c := mergeHistory(t)
	mustGit(t, repo, "tag", "light", c["m2"])
	mustGit(t, repo, "tag", "-a", "-m", "annotated", "ann", c["f1"])
	mustGit(t, repo, "tag", "-a", "-m", "tag of a tag", "ann2", "ann")
	mustGit(t, repo, "tag", "treetag", c["m1"]+"^{tree}")
	mustGit(t, repo, "update-ref", "refs/remotes/origin/main", c["m3"])
	mustGit(t, repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	mustGit(t, repo, "update-ref", "refs/orc/x", c["g1"])
	mustGit(t, repo, "branch", "dup", c["f2"])
	mustGit(t, repo, "tag", "dup", c["m1"]) // the branch wins (git would warn and take the tag)
	mustGit(t, repo, "pack-refs", "--all")
	mustGit(t, repo, "branch", "loose", c["merge"])
	r := mustOpen(t, repo)
	tests := map[string]string{
		"HEAD": c["m4"], "main": c["m4"], "g": c["g1"], "loose": c["merge"],
		"light": c["m2"], "ann": c["f1"], "ann2": c["f1"], "refs/tags/ann": c["f1"],
		"origin/main": c["m3"], "origin": c["m3"], "refs/orc/x": c["g1"], "refs/heads/f": c["f2"],
		"dup": c["f2"], c["g1"][:10]: c["g1"], strings.ToUpper(c["m1"]): c["m1"],
		"treetag": "", "nope": "", "orc/x": "", "../config": "", "HEAD~1": "", "": "", "refs/heads/../../config": "",
	}
	for in, want := range tests {
		h, err := r.resolveCommitish(in)
		if want == "" {
			if err == nil {
				t.Errorf("resolveCommitish(%q) = %s, want an error", in, h)
			}
			continue
		}
		if err != nil || h != want {
			t.Errorf("resolveCommitish(%q) = %s, %v; want %s", in, h, err, want)
		}
	}
}
