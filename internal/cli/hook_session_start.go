package cli

import "github.com/orc-state/orc-state/internal/app"

// HookSessionStartCmd is `hook session-start`.
type HookSessionStartCmd struct{}

// Help is the detail of hook session-start --help: the payload fields read.
func (c *HookSessionStartCmd) Help() string {
	return hookHelp("SessionStart", "cwd", "agent_id", "source", "session_title") + `
With a live session on the branch of cwd, it answers
{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":...}}:
the resume packet for source compact, resume or fork, a one-line banner
otherwise; sessionTitle only when session_title is absent, empty or starts
with "orc: ". It appends the ORC_* variables to $CLAUDE_ENV_FILE. Nothing for
a subagent (agent_id set) or without a live session; always exit 0.`
}

// Run injects the resume packet after compaction or on resume, a one-line
// banner on startup or clear, and nothing when there is no live session
// (app.HookSessionStart builds the answer; Run prints it and the
// problems).
func (c *HookSessionStartCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, txn *app.Txn) error {
	answer, problems := app.HookSessionStart(o, w, sd, txn)
	for _, err := range problems {
		o.Problem(err)
	}
	if answer == nil {
		return nil
	}
	_, err := o.Stdout.Write(answer)
	return err
}
