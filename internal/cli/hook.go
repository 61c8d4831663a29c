package cli

// What the hook verbs share: reading the hook's stdin JSON and finding
// the live session.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// hookPayload is the stdin JSON of the Claude Code hooks orc-state serves.
type hookPayload struct {
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

// hookHelp is the start of a hook verb's --help: the event, and the
// fields of its stdin JSON the verb reads (hooks/README.md shows a payload
// of each event). Every field named must be one hookPayload decodes.
func hookHelp(event string, fields ...string) string {
	return fmt.Sprintf(`Claude Code runs it for %s with the hook's JSON on stdin (an example
is in hooks/README.md). Of that JSON it reads: %s; every other
field is ignored, and a missing one reads as empty.
`, event, strings.Join(fields, ", "))
}

// hookStdinTimeout bounds the wait for the hook's stdin to close.
const hookStdinTimeout = 2 * time.Second

// payload reads and decodes the hook's stdin, then moves to its cwd (the
// run's working directory becomes it: nothing else of the process moves).
func (e *Env) payload() (hookPayload, error) {
	var p hookPayload
	data, err := input.Within(e.Stdin, input.MaxStdin, hookStdinTimeout, nil)
	if err != nil {
		return p, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return p, errors.New("empty stdin; expected the hook's JSON")
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("stdin is not the hook's JSON: %v", err)
	}
	if p.Cwd != "" {
		dir := p.Cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(e.wd, dir)
		}
		fi, err := os.Stat(dir)
		if err == nil && !fi.IsDir() {
			err = fmt.Errorf("chdir %s: not a directory", p.Cwd)
		}
		if err != nil {
			return p, fmt.Errorf("cannot enter cwd: %v", err)
		}
		e.wd = filepath.Clean(dir)
	}
	return p, nil
}

// problem reports a hook failure as one line on stderr; hooks always exit
// 0 so they never block the host.
func (e *Env) problem(err error) error {
	fmt.Fprintf(e.Stderr, "orc-state %s: %s\n", e.Verb, safetext.Escape(strings.ReplaceAll(err.Error(), "\n", " ")))
	return nil
}

// liveSession returns the selected session when it is in progress or
// paused; nil (and no error) when there is none (selection.Where.Live).
func (e *Env) liveSession() (*state.Dir, *registry.Registry, *registry.Session, error) {
	return e.where().Live()
}
