package cli

import "github.com/orc-state/orc-state/internal/app"

// HookSessionEndCmd is `hook session-end`.
type HookSessionEndCmd struct{}

// Help is the detail of hook session-end --help: the payload fields read.
func (c *HookSessionEndCmd) Help() string {
	return hookHelp("SessionEnd", "cwd", "agent_id", "reason") + `
With a live session on the branch of cwd, it writes the Auto-checkpoint
(trigger session-end), so the next session's resume packet is fresh; the
claims of the session's agents are kept (a resumed session continues them)
and the packet lists them. The client does not fire SessionEnd on every
exit and gives all its hooks 1.5 s together: nothing depends on it. It
prints nothing and exits 0.`
}

// Run writes the Auto-checkpoint as the session ends (app.HookSessionEnd):
// one stderr line on a problem; always exit 0, never any stdout.
func (c *HookSessionEndCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookSessionEnd(o, w, txn))
}
