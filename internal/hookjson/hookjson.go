// Package hookjson owns the stdin JSON of the Claude Code hooks orc-state
// serves: its fields, reading it within a bound, and the working directory
// it names (docs/claude-code.md conventions; hooks/README.md shows a
// payload of each event).
package hookjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/input"
)

// Payload is a hook's stdin JSON: the fields of every event orc-state
// answers. A missing field reads as empty; every other is ignored.
type Payload struct {
	SessionID          string `json:"session_id"`
	TranscriptPath     string `json:"transcript_path"`
	Cwd                string `json:"cwd"`
	HookEventName      string `json:"hook_event_name"`
	Trigger            string `json:"trigger"`
	CustomInstructions string `json:"custom_instructions"`
	Source             string `json:"source"`
	AgentID            string `json:"agent_id"`
	AgentType          string `json:"agent_type"`
	StopHookActive     bool   `json:"stop_hook_active"`
	SessionTitle       any    `json:"session_title"` // a string; absent when the session has no title
	Reason             string `json:"reason"`        // SessionEnd
	Error              any    `json:"error"`         // StopFailure: a string such as rate_limit
	// WorktreeCreate names the new worktree name (observed) or
	// worktree_name (the reference), and may give base_path and source_ref;
	// WorktreeRemove gives worktree_path.
	Name         string `json:"name"`
	WorktreeName string `json:"worktree_name"`
	BasePath     string `json:"base_path"`
	SourceRef    string `json:"source_ref"`
	WorktreePath string `json:"worktree_path"`
}

// StdinTimeout bounds the wait for the hook's stdin to close: some hosts
// never close it.
const StdinTimeout = 2 * time.Second

// Read reads and decodes a hook's stdin (at most input.MaxStdin bytes,
// within StdinTimeout), then resolves its cwd against wd: the directory the
// run works in from then on (wd itself when the payload names none).
func Read(stdin io.Reader, wd string) (Payload, string, error) {
	var p Payload
	data, err := input.Within(stdin, input.MaxStdin, StdinTimeout, nil)
	if err != nil {
		return p, wd, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return p, wd, errors.New("empty stdin; expected the hook's JSON")
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, wd, fmt.Errorf("stdin is not the hook's JSON: %v", err)
	}
	if p.Cwd == "" {
		return p, wd, nil
	}
	dir := p.Cwd
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("chdir %s: not a directory", p.Cwd)
	}
	if err != nil {
		return p, wd, fmt.Errorf("cannot enter cwd: %v", err)
	}
	return p, filepath.Clean(dir), nil
}

// Help is the start of a hook verb's --help: the event, and the fields of
// its stdin JSON the verb reads. Every field named must be one Payload
// decodes.
func Help(event string, fields ...string) string {
	return fmt.Sprintf(`Claude Code runs it for %s with the hook's JSON on stdin (an example
is in hooks/README.md). Of that JSON it reads: %s; every other
field is ignored, and a missing one reads as empty.
`, event, strings.Join(fields, ", "))
}
