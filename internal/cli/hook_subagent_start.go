package cli

import (
	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/resume"
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
func (c *HookSubagentStartCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	e.actor = "hook:SubagentStart"
	s, err := e.subagentSession()
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if b, err := e.worktreeBinding(); err == nil && b != nil && b.Agent != "" {
		agent = b.Agent // the worktree's own agent
	}
	if agent == "" {
		if agent, err = e.agent(""); err != nil {
			return e.problem(err)
		}
	}
	var out resume.HookOutput
	out.HookSpecificOutput.HookEventName = "SubagentStart"
	out.HookSpecificOutput.AdditionalContext = packet.SubagentBrief(s, agent)
	return printJSON(e.Stdout, out, "")
}

// enter makes dir the run's working directory, for a hook that looks at
// another place than its payload's cwd: the state dir and the binding are
// found again from there.
func (e *Env) enter(dir string) {
	e.wd, e.dir = dir, nil
	e.bindingRead, e.bound, e.boundErr = false, nil, nil
}
