package cli

// What the hook verbs share: the payload they decode and the start of
// their --help (app.HookPayload, app.HookHelp).

import "github.com/orc-state/orc-state/internal/app"

// hookPayload is the stdin JSON of the Claude Code hooks orc-state serves.
type hookPayload = app.HookPayload

// hookHelp is the start of a hook verb's --help (app.HookHelp).
func hookHelp(event string, fields ...string) string { return app.HookHelp(event, fields...) }

// hookProblem is how a hook's Run ends: err, the problem its work returned,
// reported as one line on stderr (nil: none); a hook always exits 0.
func hookProblem(o *app.Streams, err error) error {
	if err != nil {
		return o.Problem(err)
	}
	return nil
}
