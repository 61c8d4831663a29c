package app

import (
	"io"

	"github.com/orc-state/orc-state/internal/statusline"
)

// StatuslineWorld is what a statusline render reads of its run, as plain
// values (it is dispatched before the parser: no World, no state dir):
// statusline.World.
type StatuslineWorld = statusline.World

// Statusline is `statusline` with args, its arguments after the verb
// (read leniently: statusline.Args): the rows statusline.Show renders from
// the payload on stdin (no lock, no git on the render path), or, when the
// arguments ask for it, the detached refresher (statusline.Refresh),
// which prints nothing. It returns the text to print and whether there is
// any to print (false for the refresher).
func Statusline(args []string, stdin io.Reader, w StatuslineWorld) (string, bool) {
	opts, refresh := statusline.Args(w.Environ.Get, args)
	if refresh != nil {
		statusline.Refresh(w, refresh[0], refresh[1])
		return "", false
	}
	return statusline.Show(w, stdin, opts), true
}

// StatuslineHelp is the detail of statusline --help: the payload fields
// read (statusline.PayloadText).
func StatuslineHelp() string { return statusline.PayloadText() }
