package cli

import (
	"github.com/orc-state/orc-state/internal/resume"
	"github.com/orc-state/orc-state/internal/selection"
)

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
// (resume.SessionStart decides; Run reads the payload and prints).
func (c *HookSessionStartCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	if p.AgentID != "" {
		return nil
	}
	e.actor = "hook:SessionStart"
	a := resume.SessionStart(resume.Start{
		Run:    selection.Run{Flag: e.sessionFlag, DirFlag: e.G.Dir, Wd: e.wd, Environ: e.proc.Environ, Clock: e.proc.Stamp},
		Source: p.Source, Title: p.SessionTitle, Now: e.proc.Now(),
	})
	for _, err := range a.Problems {
		e.problem(err)
	}
	if a.JSON == nil {
		return nil
	}
	_, err = e.Stdout.Write(a.JSON)
	return err
}
