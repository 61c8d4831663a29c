package registry

import (
	"reflect"
	"testing"
)

func TestLinkPRUpdatesTheSameURLAndKeepsWhatIsNotPassed(t *testing.T) {
	one, two := 1, 2
	base := func() Session {
		return Session{LinkedPRs: []PR{{Repo: "r", URL: "https://x/pull/1", Number: &one, StackID: Str("s")}}}
	}
	for _, c := range []struct {
		name string
		pr   PR
		want []PR
	}{
		{"the same URL, only the repo: the rest kept", PR{Repo: "r2", URL: "https://x/pull/1"},
			[]PR{{Repo: "r2", URL: "https://x/pull/1", Number: &one, StackID: Str("s")}}},
		{"the same URL, a new number: replaced, the stack kept", PR{Repo: "r", URL: "https://x/pull/1", Number: &two},
			[]PR{{Repo: "r", URL: "https://x/pull/1", Number: &two, StackID: Str("s")}}},
		{"another URL: appended", PR{Repo: "r", URL: "https://x/pull/2"},
			[]PR{{Repo: "r", URL: "https://x/pull/1", Number: &one, StackID: Str("s")}, {Repo: "r", URL: "https://x/pull/2"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			s.LinkPR(c.pr)
			if !reflect.DeepEqual(s.LinkedPRs, c.want) {
				t.Fatalf("LinkedPRs = %+v, want %+v", s.LinkedPRs, c.want)
			}
			s.LinkPR(c.pr)
			if !reflect.DeepEqual(s.LinkedPRs, c.want) {
				t.Fatalf("linked twice: LinkedPRs = %+v, want %+v", s.LinkedPRs, c.want)
			}
		})
	}
}

func TestSetRepoSetsOnlyWhatIsGiven(t *testing.T) {
	three := 3
	s := Session{}
	s.SetRepo("api", RepoState{RepoPath: "/r/api", Branch: "feat"})
	s.SetRepo("api", RepoState{Worktree: "/w", CurrentSlice: &three})
	s.SetRepo("api", RepoState{PRURL: Str("https://x/pull/9")})
	want := RepoState{RepoPath: "/r/api", Branch: "feat", Worktree: "/w", CurrentSlice: &three, PRURL: Str("https://x/pull/9")}
	if got := s.PerRepoState["api"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("PerRepoState[api] = %+v, want %+v", got, want)
	}
	if len(s.PerRepoState) != 1 {
		t.Fatalf("PerRepoState = %+v, want only api", s.PerRepoState)
	}
}
