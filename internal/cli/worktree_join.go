package cli

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/registry"
)

// WorktreeJoinCmd is `worktree join`.
type WorktreeJoinCmd struct {
	Session string `help:"The session to bind this worktree to, by sessionId; default: $ORC_SESSION." placeholder:"S"`
	AgentFlag
}

// Run binds the linked worktree it runs in to the session, under the
// lock, and prints its row as worktree list does. Joining the session it
// is bound to already changes nothing (or only the agent, when given).
func (c *WorktreeJoinCmd) Run(e *Env) error {
	if err := checkWorktreeAgent(c.Agent); err != nil {
		return err
	}
	d, err := e.Dir()
	if err != nil {
		return err
	}
	l := d.Git
	switch {
	case l == nil || l.WorktreeRoot == "":
		return fault.Usagef("not inside a git worktree").WithHint("run orc-state worktree join inside the linked worktree to bind")
	case !l.Linked:
		return fault.Usagef("this is the repository's main worktree; only a linked worktree is bound (here the branch selects its session)").
			WithHint("orc-state worktree add PATH makes a linked worktree bound to the session")
	}
	id := c.Session
	if id == "" {
		id = e.getenv("ORC_SESSION")
	}
	if id == "" {
		hint := "orc-state worktree join --session S (orc-state sessions lists them)"
		if reg, _, err := d.ReadRegistry(); err == nil {
			if ids := selection.LiveIDs(reg); len(ids) > 0 {
				hint = "orc-state worktree join --session S, one of the live sessions: " + selection.QuotedList(ids, 5)
			}
		}
		return fault.Usagef("name the session this worktree joins").WithHint("%s", hint)
	}
	if err := registry.CheckKey(id); err != nil {
		return fault.Usagef("--session: %v", err).WithHint("orc-state sessions lists the sessionIds")
	}
	if err := e.bindWorktree(*l, id, c.Agent); err != nil {
		return err
	}
	return e.printBound(*l)
}
