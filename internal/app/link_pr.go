package app

import (
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// LinkPRParams are link-pr's arguments, already checked by the command
// line: the repository, the PR's URL (its identity) and number, and its
// place in a stack ("" and nil when not given).
type LinkPRParams struct {
	Repo, URL     string
	Number        *int
	StackID       string
	StackPosition *int
	StackedOn     string
}

// LinkPR links a PR to the session for branch (the current branch when
// ""), updating the entry with the same URL; the journal keeps the PR as
// the change's arguments.
func LinkPR(txn *Txn, branch string, p LinkPRParams) error {
	pr := registry.PR{Repo: p.Repo, URL: p.URL, Number: p.Number, StackID: registry.Str(p.StackID),
		StackPosition: p.StackPosition, StackedOn: registry.Str(p.StackedOn)}
	return txn.Mutate(branch, pr, func(_ *state.Tx, s *registry.Session) error {
		s.LinkPR(pr)
		return nil
	})
}
