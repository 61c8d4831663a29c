package cli

import "github.com/orc-state/orc-state/internal/app"

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
// (app.HookSubagentStop), so other agents need not wait for its leases to
// end.
func (c *HookSubagentStopCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	return hookProblem(o, app.HookSubagentStop(o, w, sd, txn))
}
