package verify

import (
	"errors"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// TestRealityDescribesHeadAndDirtyList: what resume and the
// Auto-checkpoint print for HEAD and for a missing dirty list, per state
// git left the branch in; unknown is never shown as clean.
func TestRealityDescribesHeadAndDirtyList(t *testing.T) {
	tests := []struct {
		name       string
		g          Reality
		head, note string
	}{
		{"unknown", Reality{Err: errors.New("no git"), Dirty: gitx.Dirty{Reason: "no git"}}, "unknown (no git)", "unknown (no git)"},
		{"unborn", Reality{Unborn: true, Worktree: "/w", Dirty: gitx.Dirty{Known: true}}, "unborn", ""},
		{"missing", Reality{Dirty: gitx.Dirty{NotApplicable: true, Reason: "branch not checked out"}}, "missing (the branch does not exist)", "n/a (branch not checked out)"},
		{"detached", Reality{HeadOK: true, Head: gitx.Head{Detached: true}, Worktree: "/w"}, "detached", "unknown"},
		{"remote", Reality{HeadOK: true, Remote: true, Dirty: gitx.Dirty{TimedOut: true, Reason: "timed out"}}, "not checked out (remote-tracking tip)", "unknown (timed out)"},
		{"elsewhere", Reality{HeadOK: true}, "not checked out", "unknown"},
		{"here", Reality{HeadOK: true, Worktree: "/w", Dirty: gitx.Dirty{Known: true}}, "branch feat/a", ""},
	}
	for _, tt := range tests {
		if got := tt.g.HeadState("feat/a"); got != tt.head {
			t.Errorf("%s: HeadState = %q, want %q", tt.name, got, tt.head)
		}
		if got := tt.g.DirtyNote(); got != tt.note {
			t.Errorf("%s: DirtyNote = %q, want %q", tt.name, got, tt.note)
		}
	}
}

// TestDirtyPathsLeaveOutTheStateDir: the state dir (where it is, and
// .orc) is never reported as uncommitted work; a path that only starts
// with its name is.
func TestDirtyPathsLeaveOutTheStateDir(t *testing.T) {
	entries := []gitx.StatusEntry{{Path: "a.go"}, {Path: "state/orc.json"}, {Path: "state"}, {Path: "statefile"},
		{Path: ".orc/x"}, {Path: ".orc"}, {Path: ".orcish"}, {Path: "sub/.orc/y"}}
	got := dirtyPaths(entries, "state")
	want := []string{"a.go", "statefile", ".orcish", "sub/.orc/y"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dirtyPaths = %q, want %q", got, want)
	}
}

// TestGitOutsideARepositorySaysNothing: outside git there is no claim to
// check (no finding); where git could not answer, git.unreadable names
// the session to verify again.
func TestGitOutsideARepositorySaysNothing(t *testing.T) {
	s := &registry.Session{SessionID: "feat-a", GitBranch: "feat/a"}
	d := &state.Dir{Path: t.TempDir()}
	g := Observe(d, s.GitBranch, 0)
	defer g.Close()
	if g.Err == nil || g.Dirty.Known {
		t.Fatalf("Observe outside git = %+v, want an error and no dirty list", g)
	}
	if got := Git(d, s, g); got != nil {
		t.Errorf("Git outside a repository = %+v, want none", got)
	}
	d.Git = &gitx.Layout{}
	got := Git(d, s, Reality{Err: errors.New("git exploded")})
	if len(got) != 1 || got[0].Code != "git.unreadable" || got[0].Message != "git cannot answer: git exploded" ||
		got[0].Next != "run git status here to see why, fix that, then orc-state verify --session=feat-a" {
		t.Errorf("Git when git cannot answer = %+v", got)
	}
}
