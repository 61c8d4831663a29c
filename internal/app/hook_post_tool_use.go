package app

import (
	"encoding/json"
	"io"
	"time"

	"github.com/orc-state/orc-state/internal/hookjson"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/statusline"
)

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

// HookPostToolUse is the context monitor of `hook post-tool-use`, which
// runs after every tool call, on plain values (it is dispatched before the
// parser: no World, no state dir). It reads the payload on stdin and the
// context level the statusline last recorded for its Claude Code session
// (one small private file under tempDir; no registry, no git) and, at red
// or critical, once per tier (judged at now()), returns the one line of
// JSON that tells the agent to write the digest and reach a clean
// stopping point. Otherwise, for a subagent, or without a recorded level,
// it returns nil: nothing is printed.
func HookPostToolUse(stdin io.Reader, tempDir string, now func() time.Time) []byte {
	data, err := input.Within(stdin, maxToolUseStdin, hookjson.StdinTimeout, nil)
	if err != nil {
		return nil
	}
	var p struct {
		SessionID string `json:"session_id"`
		AgentID   string `json:"agent_id"`
	}
	if json.Unmarshal(data, &p) != nil || p.AgentID != "" {
		return nil // a subagent's context is its own, not the one the statusline saw
	}
	key := statusline.Key(p.SessionID)
	if key == "" {
		return nil
	}
	files, err := statusline.OpenFiles(tempDir)
	if err != nil {
		return nil
	}
	lvl, ok := files.ReadLevel(key)
	if !ok {
		return nil
	}
	tier, advice, ok := statusline.Warning(lvl, now(), func(t statusline.Tier) bool { return files.Warned(key, t) })
	if !ok || !files.MarkWarned(key, tier) {
		return nil
	}
	var out postToolUseOutput
	out.HookSpecificOutput.HookEventName = "PostToolUse"
	out.HookSpecificOutput.AdditionalContext = advice
	b, _ := json.Marshal(out)
	return append(b, '\n')
}
