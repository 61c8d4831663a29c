package cli

import (
	"encoding/json"
	"time"

	"github.com/orc-state/orc-state/internal/hookjson"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/statusline"
)

// HookPostToolUseCmd is `hook post-tool-use` (dispatched before the parser).
type HookPostToolUseCmd struct{}

// maxToolUseStdin bounds the PostToolUse JSON read: it carries the tool's
// whole input and response. A larger one is drained and ignored.
const maxToolUseStdin = 32 << 20

// postToolUseOutput is the hook's answer when it warns.
type postToolUseOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

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
// runs after every tool call. It reads the context level the statusline
// last recorded for this Claude Code session (one small private file; no
// registry, no git) and, at red or critical, once per tier, tells the agent
// to write the digest and reach a clean stopping point. Otherwise, for a
// subagent, or without a live orc session, it prints nothing. Exit 0 always.
func runPostToolUse(proc *Process) {
	data, err := input.Within(proc.Stdin, maxToolUseStdin, hookjson.StdinTimeout, nil)
	if err != nil {
		return
	}
	var p struct {
		SessionID string `json:"session_id"`
		AgentID   string `json:"agent_id"`
	}
	if json.Unmarshal(data, &p) != nil || p.AgentID != "" {
		return // a subagent's context is its own, not the one the statusline saw
	}
	key := statusline.Key(p.SessionID)
	if key == "" {
		return
	}
	files, err := statusline.OpenFiles(proc.tempDir())
	if err != nil {
		return
	}
	lvl, ok := files.ReadLevel(key)
	if !ok {
		return
	}
	tier, advice, ok := statusline.Warning(lvl, time.Now(), func(t statusline.Tier) bool { return files.Warned(key, t) })
	if !ok || !files.MarkWarned(key, tier) {
		return
	}
	var out postToolUseOutput
	out.HookSpecificOutput.HookEventName = "PostToolUse"
	out.HookSpecificOutput.AdditionalContext = advice
	b, _ := json.Marshal(out)
	proc.Stdout.Write(append(b, '\n'))
}
