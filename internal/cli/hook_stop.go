package cli

import "github.com/orc-state/orc-state/internal/app"

// HookStopCmd is `hook stop`.
type HookStopCmd struct{}

// Help is the detail of hook stop --help: the payload fields read.
func (c *HookStopCmd) Help() string {
	return hookHelp("Stop", "cwd", "agent_id") + `
With a live session on the branch of cwd, it rewrites the Auto-checkpoint
(trigger stop) when HEAD or the dirty files differ from the last one; a
subagent's turn (agent_id set) writes nothing. It prints nothing and exits 0.`
}

// Run refreshes the Auto-checkpoint at the end of a turn, only when HEAD
// or the dirty set changed since the last one (app.HookStop). It prints
// nothing.
func (c *HookStopCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookStop(o, w, txn))
}
