package cli

import "github.com/orc-state/orc-state/internal/app"

// HookStopFailureCmd is `hook stop-failure`.
type HookStopFailureCmd struct{}

// Help is the detail of hook stop-failure --help: the payload fields read.
func (c *HookStopFailureCmd) Help() string {
	return hookHelp("StopFailure", "cwd", "agent_id", "error") + `
A turn that ended on an API error (a rate limit, an overloaded server)
fires StopFailure instead of Stop. With a live session on the branch of cwd
it writes the Auto-checkpoint (trigger stop-failure); the claims are kept
and the next resume packet lists them; a subagent's failure (agent_id set)
writes nothing. It prints nothing and exits 0.`
}

// Run writes the Auto-checkpoint after a failed turn (app.HookStopFailure).
func (c *HookStopFailureCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookStopFailure(o, w, txn))
}
