package cli

import "github.com/orc-state/orc-state/internal/app"

// JiraUnbindCmd is `jira unbind`.
type JiraUnbindCmd struct {
	BranchFlag
}

// Run unbinds the Jira key (app.JiraUnbind).
func (c *JiraUnbindCmd) Run(txn *app.Txn) error {
	return app.JiraUnbind(txn, c.Branch)
}
