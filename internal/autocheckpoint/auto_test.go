package autocheckpoint

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/verify"
)

// What git could not say is written as unknown, with why; what it said is
// written as it is, with a credential-shaped subject or path redacted.
func TestFromGit(t *testing.T) {
	key := "AK" + "IA" + strings.Repeat("Q", 16) // shaped like an AWS key id
	sha := strings.Repeat("a", 40)
	for _, tt := range []struct {
		name      string
		g         verify.Reality
		headState string
		short     string
	}{
		{"git failed", verify.Reality{Err: errors.New("no git")}, "unknown (no git)", ""},
		{"unborn", verify.Reality{Unborn: true}, "unborn", ""},
		{"no such branch", verify.Reality{}, "unknown (branch does not exist)", ""},
		{"a commit", verify.Reality{HeadOK: true, Head: gitx.Head{SHA: sha, Subject: "fix " + key}}, "", "aaaaaaa"},
		{"detached", verify.Reality{HeadOK: true, Head: gitx.Head{SHA: sha, Detached: true}}, "detached", "aaaaaaa"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := FromGit(tt.g)
			if a.HeadState != tt.headState || a.HeadShort != tt.short {
				t.Fatalf("head %q %q, want %q %q", a.HeadState, a.HeadShort, tt.headState, tt.short)
			}
			if strings.Contains(a.HeadSubject, key) {
				t.Fatalf("the subject keeps the credential: %q", a.HeadSubject)
			}
		})
	}
	a := FromGit(verify.Reality{HeadOK: true, Head: gitx.Head{SHA: sha}, Dirty: gitx.Dirty{Known: true}, Paths: []string{"ok.go", key + ".txt"}})
	if a.DirtyCount != 2 || a.DirtyPaths[0] != "ok.go" || strings.Contains(a.DirtyPaths[1], key) {
		t.Fatalf("dirty paths %q (%d)", a.DirtyPaths, a.DirtyCount)
	}
}

// TestFromGitKeepsWhatTheSectionShows: with more dirty paths than the
// section shows, only those are kept (and redacted), and the section
// renders exactly as it would from all of them redacted: the count of all,
// the first ones, how many more.
func TestFromGitKeepsWhatTheSectionShows(t *testing.T) {
	key := "AK" + "IA" + strings.Repeat("Q", 16)
	sha := strings.Repeat("a", 40)
	for _, n := range []int{0, 1, ShownPaths - 1, ShownPaths, ShownPaths + 1, 300} {
		var paths []string
		for i := 0; i < n; i++ {
			paths = append(paths, fmt.Sprintf("dir/%s-%03d.txt", key, i))
		}
		g := verify.Reality{HeadOK: true, Head: gitx.Head{SHA: sha, Subject: "s"}, Dirty: gitx.Dirty{Known: true}, Paths: paths}
		a := FromGit(g)
		if a.DirtyCount != n || len(a.DirtyPaths) != min(n, ShownPaths) {
			t.Fatalf("%d paths: count %d, kept %d", n, a.DirtyCount, len(a.DirtyPaths))
		}
		all := gitFacts(g)
		for i, p := range all.DirtyPaths {
			all.DirtyPaths[i] = secrets.Redact(p)
		}
		all.HeadSubject = secrets.Redact(all.HeadSubject)
		if got, want := string(checkpoint.RenderAuto(a)), string(checkpoint.RenderAuto(all)); got != want {
			t.Errorf("%d paths: the section is\n%s\nfrom all of them\n%s", n, got, want)
		}
		if strings.Contains(string(checkpoint.RenderAuto(a)), key) {
			t.Errorf("%d paths: a credential is shown", n)
		}
	}
}
