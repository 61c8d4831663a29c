package cli

import "github.com/orc-state/orc-state/internal/app"

// HookSubagentStartCmd is `hook subagent-start`.
type HookSubagentStartCmd struct{}

// Run tells a subagent, as additionalContext, which session it works for,
// the agent id to claim slices with and the claim protocol in three
// commands; nothing when there is no live session where it starts (or, in
// a linked worktree bound to none and with no session of its own, such as
// the one Claude Code makes for an isolated subagent, in
// $CLAUDE_PROJECT_DIR). app.HookSubagentStart builds the answer.
func (c *HookSubagentStartCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	out, err := app.HookSubagentStart(o, w, sd, txn)
	if err != nil {
		return o.Problem(err)
	}
	if out == nil {
		return nil
	}
	return printJSON(o.Stdout, out, "")
}
