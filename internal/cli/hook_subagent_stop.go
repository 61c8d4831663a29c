package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/worktrees"
	"github.com/orc-state/orc-state/registry"
)

// HookSubagentStopCmd is `hook subagent-stop`.
type HookSubagentStopCmd struct{}

// Help is the detail of hook subagent-stop --help: the payload fields read.
func (c *HookSubagentStopCmd) Help() string {
	return hookHelp("SubagentStop", "cwd", "agent_id", "agent_type") + `
It releases the claims of the agent id hook subagent-start gave the
subagent (agent_type-agent_id) on the slices that are still open, in the
session selected where it stops (in a worktree bound to none with no
session of its own, the one of $CLAUDE_PROJECT_DIR), journaled with why.
A claim of any other agent, on a closed slice, or claimed or renewed after
the stop (journaled after the hook began, or stamped later) is left alone. It prints nothing and exits 0.`
}

// Run releases what a stopped subagent still holds
// (worktrees.Run.ReleaseStopped), so other agents need not wait for its
// leases to end.
func (c *HookSubagentStopCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, where *selection.Where, txn *app.Txn) error {
	p, err := payload(o, w)
	if err != nil {
		return o.Problem(err)
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if agent == "" {
		return nil // not a subagent the client named: nothing is proven
	}
	txn.SetHookActor("SubagentStop")
	stop := w.Stamp()
	s, err := subagentSession(w, sd, where)
	if err != nil || s == nil {
		if err != nil {
			return o.Problem(err)
		}
		return nil
	}
	if err := txn.Worktrees().ReleaseStopped(s.SessionID, agent, stop); err != nil {
		return o.Problem(err)
	}
	return nil
}

// subagentSession is the live session a subagent hook works on: the one
// selected at the payload's cwd, else, in a linked worktree bound to none
// (the one Claude Code makes for an isolated subagent), the one selected
// in $CLAUDE_PROJECT_DIR. nil when there is none.
func subagentSession(w *app.World, sd *app.StateDir, where *selection.Where) (*registry.Session, error) {
	unbound := where.UnboundLinked()
	_, _, s, err := where.Live()
	if err == nil && s == nil && unbound {
		if dir := w.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			sd.Enter(w.Abs(dir))
			_, _, s, err = where.Live()
		}
	}
	return s, err
}
