package app

// What jira bind and jira unbind do: the session's jiraTicket.

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// JiraBind binds a Jira key (like ABC-123; anything else is refused) to
// the session for branch (the current branch when "").
func JiraBind(txn *Txn, branch, key string) error {
	if !registry.JiraKey.MatchString(key) {
		return fault.Usagef("%q is not a Jira key like ABC-123", key)
	}
	return txn.Mutate(branch, map[string]string{"key": key}, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = registry.Str(key)
		return nil
	})
}

// JiraUnbind unbinds the Jira key of the session for branch (the current
// branch when "").
func JiraUnbind(txn *Txn, branch string) error {
	return txn.Mutate(branch, nil, func(_ *state.Tx, s *registry.Session) error {
		s.JiraTicket = nil
		return nil
	})
}
