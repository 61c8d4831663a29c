package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/resume"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// HookSubagentStartCmd is `hook subagent-start`.
type HookSubagentStartCmd struct{}

// Run tells a subagent, as additionalContext, which session it works for,
// the agent id to claim slices with and the claim protocol in three
// commands; nothing when there is no live session where it starts (or, in
// a linked worktree bound to none and with no session of its own, such as
// the one Claude Code makes for an isolated subagent, in
// $CLAUDE_PROJECT_DIR).
func (c *HookSubagentStartCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, where *selection.Where, txn *app.Txn) error {
	p, err := payload(o, w)
	if err != nil {
		return o.Problem(err)
	}
	txn.SetHookActor("SubagentStart")
	s, err := subagentSession(w, sd, where)
	if err != nil || s == nil {
		if err != nil {
			return o.Problem(err)
		}
		return nil
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if b, err := sd.Binding(); err == nil && b != nil && b.Agent != "" {
		agent = b.Agent // the worktree's own agent
	}
	if agent == "" {
		if agent, err = where.Agent("", w.Wd()); err != nil {
			return o.Problem(err)
		}
	}
	var out resume.HookOutput
	out.HookSpecificOutput.HookEventName = "SubagentStart"
	out.HookSpecificOutput.AdditionalContext = packet.SubagentBrief(s, agent)
	return printJSON(o.Stdout, out, "")
}
