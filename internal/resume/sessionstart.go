package resume

// The SessionStart hook's answer.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/envfile"
	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/registry"
)

// Start is what the SessionStart hook hands over: the run, moved to the
// payload's cwd, and the payload's source and session_title.
type Start struct {
	Run    selection.Run
	Source string // startup, resume, clear, compact or fork
	Title  any    // session_title: a string, or nil when the session has none
	Now    time.Time
}

// Answer is what the hook prints: JSON on stdout (nil: nothing), and
// Problems, each one line on stderr; the hook exits 0 either way.
type Answer struct {
	JSON     []byte
	Problems []error
}

// HookOutput is the JSON a start hook answers with.
type HookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
		SessionTitle      string `json:"sessionTitle,omitempty"`
	} `json:"hookSpecificOutput"`
}

// Encode is o as one line of JSON, HTML characters unescaped.
func (o HookOutput) Encode() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(o) // strings only: it cannot fail
	return buf.Bytes()
}

// TitlePrefix starts every session title orc-state sets.
const TitlePrefix = "orc: "

// SessionStart is the hook's whole answer. With a live session (selection
// .Where.Live) it appends the ORC_* exports to $CLAUDE_ENV_FILE when set
// (a refusal or a failure is a problem, the answer goes on) and answers
// the resume packet within the host's bound for source compact, resume or
// fork, a one-line banner otherwise, with a title when titleIsOurs. No
// live session: no JSON; a selection error is the one problem.
func SessionStart(in Start) Answer {
	w := in.Run.Where()
	d, reg, s, err := w.Live()
	if err != nil {
		return Answer{Problems: []error{err}}
	}
	if s == nil {
		return Answer{}
	}
	var a Answer
	if path := in.Run.Environ.Get("CLAUDE_ENV_FILE"); path != "" {
		if err := envfile.Export(d, s, path, in.Run.Wd); err != nil {
			a.Problems = append(a.Problems, err)
		}
	}
	var out HookOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	if titleIsOurs(in.Source, in.Title) {
		out.HookSpecificOutput.SessionTitle = safetext.Clip(fmt.Sprintf("%s%s %s [%s]", TitlePrefix, s.Command, s.GitBranch, s.Phase), 120)
	}
	switch in.Source {
	case "compact", "resume", "fork":
		agent, _ := w.Agent("", in.Run.Wd) // whose claim the packet shows first
		out.HookSpecificOutput.AdditionalContext = packet.Build(d, reg, s, agent, in.Now).HostContext(func(ctx string) any {
			o := out
			o.HookSpecificOutput.AdditionalContext = ctx
			return o
		})
	default:
		out.HookSpecificOutput.AdditionalContext = fmt.Sprintf(
			"orc-state: session %s (%s, phase %s/%d %s, %s) is registered for this branch; `orc-state resume` prints its resume packet.",
			s.SessionID, s.Command, s.Phase, s.TotalPhases, registry.Deref(s.PhaseLabel), s.Status)
	}
	a.JSON = out.Encode()
	return a
}

// titleIsOurs reports whether the hook may set the session's title: the
// client applies sessionTitle on startup, resume and fork (and ignores it
// on compact and clear), replacing whatever title the session had, and its
// payload's session_title does not say who chose the current one (observed
// with the real client, 2.1.332; hooks/README.md). So a title is set only
// when the session has none, or has one orc-state set (it starts with
// TitlePrefix); a name the user gave (claude -n, /rename) is left alone.
func titleIsOurs(source string, title any) bool {
	switch source {
	case "compact", "clear":
		return false
	}
	switch t := title.(type) {
	case nil:
		return true
	case string:
		return t == "" || strings.HasPrefix(t, TitlePrefix)
	}
	return false // a title of a shape we do not know: leave it
}
