package cli

import "github.com/orc-state/orc-state/internal/app"

// JiraBindCmd is `jira bind`.
type JiraBindCmd struct {
	BranchFlag
	Key string `arg:"" help:"Jira key, like ABC-123."`
}

// Run binds a Jira key (app.JiraBind).
func (c *JiraBindCmd) Run(txn *app.Txn) error {
	return app.JiraBind(txn, c.Branch, c.Key)
}
