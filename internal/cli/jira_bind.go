package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// JiraBindCmd is `jira bind`.
type JiraBindCmd struct {
	BranchFlag
	Key string `arg:"" help:"Jira key, like ABC-123."`
}

// Run binds a Jira key.
func (c *JiraBindCmd) Run(txn *app.Txn) error {
	if !registry.JiraKey.MatchString(c.Key) {
		return fault.Usagef("%q is not a Jira key like ABC-123", c.Key)
	}
	return txn.Mutate(c.Branch, map[string]string{"key": c.Key}, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = registry.Str(c.Key)
		return nil
	})
}
