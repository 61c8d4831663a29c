package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// HookSubagentStartCmd is `hook subagent-start`.
type HookSubagentStartCmd struct{}

// maxSubagentContext bounds what SubagentStart injects, in characters: it
// reaches every subagent's first request, so it stays short.
const maxSubagentContext = 1000

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
	unbound := e.unboundLinked()
	_, _, s, err := e.liveSession()
	if err == nil && s == nil && unbound {
		// A worktree made for the subagent (isolation: worktree) has no
		// session of its own: the session is the one where Claude Code
		// started, in the project directory.
		if dir := e.getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			e.enter(e.abs(dir))
			_, _, s, err = e.liveSession()
		}
	}
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	agent := subagentID(p.AgentType, p.AgentID)
	if b, err := e.worktreeBinding(); err == nil && b != nil && b.Agent != "" {
		agent = b.Agent // the worktree's own agent
	}
	if agent == "" {
		if agent, err = e.agent(""); err != nil {
			return e.problem(err)
		}
	}
	var out sessionStartOutput
	out.HookSpecificOutput.HookEventName = "SubagentStart"
	out.HookSpecificOutput.AdditionalContext = clip(subagentContext(s, agent), maxSubagentContext)
	return printJSON(e, out, "")
}

// enter makes dir the run's working directory, for a hook that looks at
// another place than its payload's cwd: the state dir and the binding are
// found again from there.
func (e *Env) enter(dir string) {
	e.wd, e.dir = dir, nil
	e.bindingRead, e.bound, e.boundErr = false, nil, nil
}

// subagentContext is the text a subagent receives: facts, then the four
// commands with the session and agent spelled out as --flag=VALUE, so they
// work from any directory (a worktree of its own included) and no value
// reads as a flag. Its placeholders are plain words (ID, STATUS, SHA)
// with the choices said in words: nothing in it is shell syntax.
func subagentContext(s *registry.Session, agent string) string {
	sel := "--session=" + safetext.Quote(s.SessionID) + " --agent=" + safetext.Quote(agent)
	return fmt.Sprintf("orc-state: this subagent works for the workflow session %s (%s, phase %s/%d, branch %s); its agent id for slice claims is %s. "+
		"Slices are claimed so that parallel agents never take the same one. "+
		"Claim: `orc-state slice claim %s` prints the id of the next ready slice, held 30 minutes (exit 1: none is ready). "+
		"Renew: `orc-state slice renew ID %s` before the 30 minutes end, while still on it; a lapsed claim can be taken by another agent. "+
		"Record: `orc-state slice set ID --status=STATUS %s`, STATUS one of red, green, committed (committed also needs --commit=SHA). "+
		"Release: `orc-state slice release ID %s` when stopping before it is done.",
		safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.GitBranch), safetext.Escape(agent), sel, sel, sel, sel)
}

// subagentID is the agent id for a subagent the client names by type and
// id ("general-purpose" and "a1b2…"): both, reduced to the safe alphabet
// (every other character a "-"), the type's leading characters that are
// not a letter or digit dropped, so that the id starts with one and can
// never read as a flag ("subagent" when no type is left); "" when the
// client gave no id.
func subagentID(agentType, id string) string {
	keep := func(s string, n int) string {
		s = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
				return r
			}
			return '-'
		}, s)
		if len(s) > n {
			s = s[:n]
		}
		return s
	}
	if id = keep(id, 64); id == "" {
		return ""
	}
	t := strings.TrimLeft(keep(agentType, 40), "-._")
	if t == "" {
		t = "subagent"
	}
	return t + "-" + id
}
