package app

import (
	"io"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/statusline"
)

// StatuslineRun is what `statusline` reads of its run, as plain values (it
// is dispatched before the parser: no World, no state dir): its arguments
// after the verb, read leniently (statusline.Args), its stdin, and the
// world statusline.World describes.
type StatuslineRun struct {
	Args       []string
	Stdin      io.Reader
	Dir        string       // the working directory, absolute
	Environ    environ.List // the run's environment
	TempDir    string       // where the private files live
	Home       string       // the user's home directory ("" when unset)
	ClaimsAt   time.Time    // the time slice claims are judged by
	PlaceWait  time.Duration
	Executable func() (string, error) // the program the detached refresher runs
}

// Statusline is `statusline`: the rows statusline.Show renders from the
// payload on stdin (no lock, no git on the render path), or, when the
// arguments ask for it, the detached refresher (statusline.Refresh),
// which prints nothing. It returns the text to print and whether there is
// any to print (false for the refresher).
func Statusline(r StatuslineRun) (string, bool) {
	opts, refresh := statusline.Args(r.Environ.Get, r.Args)
	w := statusline.World{
		Dir: r.Dir, Environ: r.Environ, TempDir: r.TempDir, Home: r.Home,
		ClaimsAt: r.ClaimsAt, PlaceWait: r.PlaceWait, Executable: r.Executable,
	}
	if refresh != nil {
		statusline.Refresh(w, refresh[0], refresh[1])
		return "", false
	}
	return statusline.Show(w, r.Stdin, opts), true
}

// StatuslineHelp is the detail of statusline --help: the payload fields
// read (statusline.PayloadText).
func StatuslineHelp() string { return statusline.PayloadText() }
