package cli

import (
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
func (c *HookSubagentStopCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if agent == "" {
		return nil // not a subagent the client named: nothing is proven
	}
	e.actor = "hook:SubagentStop"
	stop := e.stamp()
	s, err := e.subagentSession()
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	if err := e.worktreeRun().ReleaseStopped(s.SessionID, agent, stop); err != nil {
		return e.problem(err)
	}
	return nil
}

// subagentSession is the live session a subagent hook works on: the one
// selected at the payload's cwd, else, in a linked worktree bound to none
// (the one Claude Code makes for an isolated subagent), the one selected
// in $CLAUDE_PROJECT_DIR. nil when there is none.
func (e *Env) subagentSession() (*registry.Session, error) {
	unbound := e.unboundLinked()
	_, _, s, err := e.liveSession()
	if err == nil && s == nil && unbound {
		if dir := e.getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			e.enter(e.abs(dir))
			_, _, s, err = e.liveSession()
		}
	}
	return s, err
}
