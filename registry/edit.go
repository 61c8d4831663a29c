package registry

// LinkPR links pr to s: a linked PR with the same URL (a PR's identity) is
// updated, keeping the recorded value of every field pr leaves nil, so
// linking the same PR twice leaves one entry; any other is appended.
func (s *Session) LinkPR(pr PR) {
	for i := range s.LinkedPRs {
		old := &s.LinkedPRs[i]
		if old.URL != pr.URL {
			continue
		}
		old.Repo = pr.Repo
		keep(&old.Number, pr.Number)
		keep(&old.StackID, pr.StackID)
		keep(&old.StackPosition, pr.StackPosition)
		keep(&old.StackedOn, pr.StackedOn)
		return
	}
	s.LinkedPRs = append(s.LinkedPRs, pr)
}

// SetRepo sets, in s's state of member repository name, what set gives: its
// non-empty strings and non-nil pointers; the rest keeps its value.
func (s *Session) SetRepo(name string, set RepoState) {
	if s.PerRepoState == nil {
		s.PerRepoState = map[string]RepoState{}
	}
	rs := s.PerRepoState[name]
	for _, f := range []struct{ to, from *string }{{&rs.RepoPath, &set.RepoPath}, {&rs.Branch, &set.Branch}, {&rs.Worktree, &set.Worktree}} {
		if *f.from != "" {
			*f.to = *f.from
		}
	}
	keep(&rs.CurrentSlice, set.CurrentSlice)
	keep(&rs.PRURL, set.PRURL)
	s.PerRepoState[name] = rs
}

// keep sets *to to from unless from is nil.
func keep[T any](to **T, from *T) {
	if from != nil {
		*to = from
	}
}
