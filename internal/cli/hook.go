package cli

// What the hook verbs share: reading the hook's stdin JSON and finding
// the live session.

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/hookjson"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// hookPayload is the stdin JSON of the Claude Code hooks orc-state serves.
type hookPayload = hookjson.Payload

// hookHelp is the start of a hook verb's --help (hookjson.Help).
func hookHelp(event string, fields ...string) string { return hookjson.Help(event, fields...) }

// payload reads and decodes the hook's stdin, then moves to its cwd (the
// run's working directory becomes it: nothing else of the process moves).
func (e *Env) payload() (hookPayload, error) {
	p, wd, err := hookjson.Read(e.Stdin, e.wd)
	e.wd = wd
	return p, err
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
