package cli

import (
	"time"

	"github.com/orc-state/orc-state/internal/app"
)

// HookPostToolUseCmd is `hook post-tool-use` (dispatched before the parser).
type HookPostToolUseCmd struct{}

// Run is the context monitor (see runPostToolUse); kong reaches it only for
// --help, which Main does not dispatch early.
func (c *HookPostToolUseCmd) Run(p *Process) error {
	runPostToolUse(p)
	return nil
}

// Help is the detail of hook post-tool-use --help: the payload fields
// read.
func (c *HookPostToolUseCmd) Help() string {
	return hookHelp("PostToolUse", "session_id", "agent_id") + `
It reads the context level the statusline last recorded for session_id (no
registry, no git) and, at red (80-89 %) or critical (90 % and above), once
per tier, answers {"hookSpecificOutput":{"hookEventName":"PostToolUse",
"additionalContext":...}} with the advice to write the digest. Nothing for a
subagent (agent_id set); always exit 0.`
}

// runPostToolUse is `hook post-tool-use`, dispatched before the parser: it
// runs after every tool call. app.HookPostToolUse reads the context level
// the statusline last recorded for this Claude Code session (one small
// private file; no registry, no git) and, at red or critical, once per
// tier, answers with the advice to write the digest and reach a clean
// stopping point, which is printed. Otherwise, for a subagent, or without
// a live orc session, it prints nothing. Exit 0 always.
func runPostToolUse(proc *Process) {
	if b := app.HookPostToolUse(proc.Stdin, proc.tempDir(), time.Now); b != nil {
		proc.Stdout.Write(b)
	}
}
