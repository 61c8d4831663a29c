package cli

// What the hook verbs share: reading the hook's stdin JSON.

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/hookjson"
)

// hookPayload is the stdin JSON of the Claude Code hooks orc-state serves.
type hookPayload = hookjson.Payload

// hookHelp is the start of a hook verb's --help (hookjson.Help).
func hookHelp(event string, fields ...string) string { return hookjson.Help(event, fields...) }

// payload reads and decodes the hook's stdin, then moves to its cwd (the
// run's working directory becomes it: nothing else of the process moves).
func payload(o *app.Streams, w *app.World) (hookPayload, error) {
	return app.ReadPayload(o, w)
}
