package autocheckpoint

import (
	"errors"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
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
