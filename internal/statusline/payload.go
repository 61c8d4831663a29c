package statusline

import (
	"encoding/json"
	"math"
	"strings"
	"time"
)

// Payload is the part of Claude Code's statusline JSON the statusline shows
// (claude-code.md §6). Every field is optional: a missing, null or wrongly
// typed value reads as absent, never as zero.
type Payload struct {
	SessionID   string // Claude Code's session id: keys the cache and context files
	Dir         string // workspace.current_dir, else cwd
	RepoName    string // workspace.repo.name
	Worktree    string // workspace.git_worktree, else worktree.name: set in a --worktree session
	Model       string // model.display_name
	Effort      string // effort.level
	Thinking    bool   // thinking.enabled
	Fast        bool   // fast_mode
	Context     *float64
	Over200k    bool // exceeds_200k_tokens
	Cost        *float64
	LinesAdded  *int64
	LinesRemove *int64
	PR          int64  // pr.number; 0 when absent
	PRState     string // pr.review_state
	Rate5h      *float64
	Rate7d      *float64
	Reset5h     time.Time // zero when absent
	Reset7d     time.Time
}

// ParsePayload reads the statusline JSON leniently: garbage, an empty
// input or a non-object gives an empty Payload.
func ParsePayload(data []byte) Payload {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return Payload{}
	}
	p := Payload{
		SessionID:   str(m, "session_id"),
		Dir:         first(str(m, "workspace", "current_dir"), str(m, "cwd")),
		RepoName:    str(m, "workspace", "repo", "name"),
		Worktree:    first(str(m, "workspace", "git_worktree"), str(m, "worktree", "name")),
		Model:       str(m, "model", "display_name"),
		Effort:      str(m, "effort", "level"),
		Thinking:    flag(m, "thinking", "enabled"),
		Fast:        flag(m, "fast_mode"),
		Over200k:    flag(m, "exceeds_200k_tokens"),
		PRState:     str(m, "pr", "review_state"),
		Reset5h:     instant(get(m, "rate_limits", "five_hour", "resets_at")),
		Reset7d:     instant(get(m, "rate_limits", "seven_day", "resets_at")),
		Context:     percent(get(m, "context_window", "used_percentage")),
		Rate5h:      percent(get(m, "rate_limits", "five_hour", "used_percentage")),
		Rate7d:      percent(get(m, "rate_limits", "seven_day", "used_percentage")),
		LinesAdded:  count(get(m, "cost", "total_lines_added")),
		LinesRemove: count(get(m, "cost", "total_lines_removed")),
	}
	if c, ok := get(m, "cost", "total_cost_usd").(float64); ok && c >= 0 && c < 1e9 {
		p.Cost = &c
	}
	if n := count(get(m, "pr", "number")); n != nil && *n > 0 {
		p.PR = *n
	}
	return p
}

// get walks nested objects; nil when any step is missing or not an object.
func get(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[k]
	}
	return v
}

func str(m map[string]any, path ...string) string {
	s, _ := get(m, path...).(string)
	return s
}

func flag(m map[string]any, path ...string) bool {
	b, _ := get(m, path...).(bool)
	return b
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// percent accepts a number in [0, 100].
func percent(v any) *float64 {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || f < 0 || f > 100 {
		return nil
	}
	return &f
}

// count accepts a non-negative whole number.
func count(v any) *int64 {
	f, ok := v.(float64)
	if !ok || f < 0 || f > 1e15 || f != math.Trunc(f) {
		return nil
	}
	n := int64(f)
	return &n
}

// instant reads a reset time given as Unix seconds or as RFC 3339 text.
func instant(v any) time.Time {
	switch t := v.(type) {
	case float64:
		if t > 0 && t < 1e11 {
			return time.Unix(int64(t), 0)
		}
	case string:
		if at, err := time.Parse(time.RFC3339, strings.TrimSpace(t)); err == nil {
			return at
		}
	}
	return time.Time{}
}
