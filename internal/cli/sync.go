package cli

// What the sync verbs share: the --remote flag, the refsync.Syncer they
// drive, and how its per-session results are printed.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/state"
)

// RemoteFlag names the remote a sync verb talks to.
type RemoteFlag struct {
	Remote string `default:"origin" help:"The git remote: a name, path or URL (any transport git knows)."`
}

// syncer builds the refsync.Syncer of this invocation.
func (e *Env) syncer(remote string) (*refsync.Syncer, error) {
	d, err := e.Dir()
	if err != nil {
		return nil, err
	}
	return refsync.New(d, remote, state.Options{Verb: e.Verb, Actor: e.Actor(), LockTimeout: e.G.LockTimeout})
}

// syncReport prints one line per session on stdout and each warning on
// stderr, and returns the verb's error (its exit code) for the results.
func (e *Env) syncReport(verb, remote string, results []refsync.Result, warnings []string) error {
	for _, r := range results {
		fmt.Fprintln(e.Stdout, r.Line())
	}
	for _, w := range warnings {
		e.warn("%s", w)
	}
	return refsync.Summary(verb, remote, results)
}
