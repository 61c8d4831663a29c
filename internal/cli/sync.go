package cli

// What the sync verbs share: the --remote flag, and how their per-session
// results (app.SyncReport) are printed.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
)

// RemoteFlag names the remote a sync verb talks to.
type RemoteFlag struct {
	Remote string `default:"origin" help:"The git remote: a name, path or URL (any transport git knows)."`
}

// syncReport prints one line per session on stdout (each followed by its
// indented lines) and each warning or note on stderr, and returns the
// verb's error (its exit code) for the results.
func syncReport(o *app.Streams, r app.SyncReport) error {
	printLines(o.Stdout, r.Lines)
	for _, n := range r.Notes {
		fmt.Fprintf(o.Stderr, "orc-state %s: %s\n", o.Verb, n)
	}
	return r.Err
}
