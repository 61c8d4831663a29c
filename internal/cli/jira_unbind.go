package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// JiraUnbindCmd is `jira unbind`.
type JiraUnbindCmd struct {
	BranchFlag
}

// Run unbinds the Jira key.
func (c *JiraUnbindCmd) Run(txn *app.Txn) error {
	return txn.Mutate(c.Branch, nil, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = nil
		return nil
	})
}
