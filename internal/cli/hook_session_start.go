package cli

import (
	"errors"
	"fmt"

	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// HookSessionStartCmd is `hook session-start`.
type HookSessionStartCmd struct{}

// sessionStartOutput is the hook's JSON answer.
type sessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
		SessionTitle      string `json:"sessionTitle,omitempty"`
	} `json:"hookSpecificOutput"`
}

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
// banner on startup or clear, and nothing when there is no live session.
func (c *HookSessionStartCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	if p.AgentID != "" {
		return nil
	}
	e.actor = "hook:SessionStart"
	d, reg, s, err := e.liveSession()
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	if path := e.getenv("CLAUDE_ENV_FILE"); path != "" {
		if why := envFileRefusal(d, path, e.wd); why != "" {
			e.problem(errors.New(why))
		} else if err := writeEnvFile(e.abs(path), orcExports(d, s, e.wd)); err != nil {
			e.problem(err)
		}
	}
	var out sessionStartOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	if titleIsOurs(p) {
		out.HookSpecificOutput.SessionTitle = safetext.Clip(fmt.Sprintf("%s%s %s [%s]", titlePrefix, s.Command, s.GitBranch, s.Phase), 120)
	}
	switch p.Source {
	case "compact", "resume", "fork":
		agent, _ := e.agent("") // whose claim the packet shows first
		out.HookSpecificOutput.AdditionalContext = packet.Build(d, reg, s, agent, e.now()).HostContext(func(ctx string) any {
			o := out
			o.HookSpecificOutput.AdditionalContext = ctx
			return o
		})
	default:
		out.HookSpecificOutput.AdditionalContext = fmt.Sprintf(
			"orc-state: session %s (%s, phase %s/%d %s, %s) is registered for this branch; `orc-state resume` prints its resume packet.",
			s.SessionID, s.Command, s.Phase, s.TotalPhases, registry.Deref(s.PhaseLabel), s.Status)
	}
	return printJSON(e, out, "")
}
