package app

import (
	"slices"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// RepoSetParams are repo set's arguments, already checked by the command
// line, journaled by their json names: the workspace session (by
// sessionId; "" for the current branch's), the member repository's name,
// and what to record of it ("" and nil when not given). Path is as the
// user gave it: RepoSet records it absolute.
type RepoSetParams struct {
	Session  string `json:"-"`
	Name     string `json:"name"`
	Path     string `json:"path,omitempty"`
	Branch   string `json:"branch,omitempty"`
	Worktree string `json:"worktree,omitempty"`
	Slice    *int   `json:"slice,omitempty"`
	PR       string `json:"pr,omitempty"`
}

// RepoSet updates one member repository's entry in the perRepoState of
// the workspace session p.Session names (the run's --session). A session
// that is not a workspace session, or a name that is not one of its
// repos, is refused.
func RepoSet(w *World, txn *Txn, p RepoSetParams) error {
	txn.Where().Flag = p.Session
	path := w.Abs(p.Path)
	return txn.Mutate("", p, func(_ *state.Tx, s *registry.Session) error {
		if s.Scope != registry.ScopeWorkspace {
			return fault.Usagef("session %s is not a workspace session", s.SessionID).WithHint("orc-state init --scope workspace --repos a,b")
		}
		if !slices.Contains(s.Repos, p.Name) {
			return fault.Usagef("%q is not a member repository of %s (repos: %v)", p.Name, s.SessionID, s.Repos).
				WithHint("add it with orc-state init --scope workspace --repos ...")
		}
		s.SetRepo(p.Name, registry.RepoState{RepoPath: path, Branch: p.Branch, Worktree: p.Worktree, CurrentSlice: p.Slice, PRURL: registry.Str(p.PR)})
		return nil
	})
}
