package cli

import (
	"net/url"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/textin"
)

// LinkPRCmd is `link-pr`.
type LinkPRCmd struct {
	BranchFlag
	Repo          string `required:"" help:"Repository the PR belongs to." placeholder:"REPO"`
	URL           string `required:"" name:"url" help:"PR URL (its identity)." placeholder:"URL"`
	Number        *int   `help:"PR number."`
	StackID       string `name:"stack-id" help:"Stack the PR belongs to." placeholder:"ID"`
	StackPosition *int   `name:"stack-position" help:"Position in the stack."`
	StackedOn     string `name:"stacked-on" help:"URL of the PR below it." placeholder:"URL"`
}

// Run links a PR, updating the entry with the same URL (app.LinkPR).
func (c *LinkPRCmd) Run(txn *app.Txn) error {
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fault.Usagef("--url %q is not an absolute URL", c.URL).WithHint("pass the PR's web URL, like https://github.com/o/r/pull/1")
	}
	if c.StackedOn != "" {
		if u, err := url.Parse(c.StackedOn); err != nil || u.Scheme == "" || u.Host == "" {
			return fault.Usagef("--stacked-on %q is not an absolute URL", c.StackedOn)
		}
	}
	for name, v := range map[string]string{"--repo": c.Repo, "--url": c.URL, "--stack-id": c.StackID, "--stacked-on": c.StackedOn} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if c.Repo == "" {
		return fault.Usagef("--repo is empty")
	}
	return app.LinkPR(txn, c.Branch, app.LinkPRParams{Repo: c.Repo, URL: c.URL, Number: c.Number,
		StackID: c.StackID, StackPosition: c.StackPosition, StackedOn: c.StackedOn})
}
