package cli

import (
	"net/url"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/textin"
)

// RepoSetCmd is `repo set NAME`.
type RepoSetCmd struct {
	Session    string `help:"The workspace session, by sessionId; default: the current branch's." placeholder:"S"`
	OldBranch  string `name:"branch" hidden:""` // refused: it meant the member's branch before --repo-branch
	Name       string `arg:"" help:"Member repository name (one of the session's repos)."`
	Path       string `help:"The member repository's path." placeholder:"P"`
	RepoBranch string `name:"repo-branch" help:"The member's branch." placeholder:"B"`
	Worktree   string `help:"The member's worktree." placeholder:"W"`
	Slice      *int   `help:"The slice the member is on." placeholder:"N"`
	PR         string `name:"pr" help:"The member's PR URL." placeholder:"URL"`
}

// Run updates one member repository's entry in perRepoState
// (app.RepoSet).
func (c *RepoSetCmd) Run(w *app.World, txn *app.Txn) error {
	if c.OldBranch != "" {
		return fault.Usagef("repo set takes no --branch: the member's branch is --repo-branch, and the workspace session is --session S (default: the current branch's)").
			WithHint("orc-state repo set --repo-branch=%s %s", safetext.Quote(c.OldBranch), safetext.Operand(c.Name))
	}
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
	return app.RepoSet(w, txn, app.RepoSetParams{Session: c.Session, Name: c.Name, Path: c.Path,
		Branch: c.RepoBranch, Worktree: c.Worktree, Slice: c.Slice, PR: c.PR})
}
