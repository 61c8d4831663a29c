package cli

import (
	"net/url"
	"slices"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// RepoSetCmd is `repo set NAME`.
type RepoSetCmd struct {
	Session    string `help:"The workspace session, by sessionId; default: the current branch's." placeholder:"S" json:"-"`
	OldBranch  string `name:"branch" hidden:"" json:"-"` // refused: it meant the member's branch before --repo-branch
	Name       string `arg:"" help:"Member repository name (one of the session's repos)." json:"name"`
	Path       string `help:"The member repository's path." placeholder:"P" json:"path,omitempty"`
	RepoBranch string `name:"repo-branch" help:"The member's branch." placeholder:"B" json:"branch,omitempty"`
	Worktree   string `help:"The member's worktree." placeholder:"W" json:"worktree,omitempty"`
	Slice      *int   `help:"The slice the member is on." placeholder:"N" json:"slice,omitempty"`
	PR         string `name:"pr" help:"The member's PR URL." placeholder:"URL" json:"pr,omitempty"`
}

// Run updates one member repository's entry in perRepoState.
func (c *RepoSetCmd) Run(w *app.World, where *selection.Where, txn *app.Txn) error {
	if c.OldBranch != "" {
		return fault.Usagef("repo set takes no --branch: the member's branch is --repo-branch, and the workspace session is --session S (default: the current branch's)").
			WithHint("orc-state repo set --repo-branch=%s %s", safetext.Quote(c.OldBranch), safetext.Operand(c.Name))
	}
	where.Flag = c.Session
	for name, v := range map[string]string{"NAME": c.Name, "--path": c.Path, "--repo-branch": c.RepoBranch, "--worktree": c.Worktree, "--pr": c.PR} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if c.PR != "" {
		if u, err := url.Parse(c.PR); err != nil || u.Scheme == "" || u.Host == "" {
			return fault.Usagef("--pr %q is not an absolute URL", c.PR)
		}
	}
	if c.Slice != nil && *c.Slice < 0 {
		return fault.Usagef("--slice %d is negative", *c.Slice)
	}
	path := w.Abs(c.Path)
	return txn.Mutate("", c, func(_ *state.Tx, s *registry.Session) error {
		if s.Scope != registry.ScopeWorkspace {
			return fault.Usagef("session %s is not a workspace session", s.SessionID).WithHint("orc-state init --scope workspace --repos a,b")
		}
		if !slices.Contains(s.Repos, c.Name) {
			return fault.Usagef("%q is not a member repository of %s (repos: %v)", c.Name, s.SessionID, s.Repos).
				WithHint("add it with orc-state init --scope workspace --repos ...")
		}
		s.SetRepo(c.Name, registry.RepoState{RepoPath: path, Branch: c.RepoBranch, Worktree: c.Worktree, CurrentSlice: c.Slice, PRURL: registry.Str(c.PR)})
		return nil
	})
}
