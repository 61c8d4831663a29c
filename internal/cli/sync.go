package cli

// What the sync verbs share: the --remote flag, the refsync.Syncer they
// drive, and how its per-session results are printed.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/selection"
)

// RemoteFlag names the remote a sync verb talks to.
type RemoteFlag struct {
	Remote string `default:"origin" help:"The git remote: a name, path or URL (any transport git knows)."`
}

// syncReport prints one line per session on stdout (each followed by its
// indented lines) and each warning or note on stderr, and returns the
// verb's error (its exit code) for the results.
func syncReport(o *app.Streams, verb, remote string, results []refsync.Result, notes []string) error {
	for _, r := range results {
		fmt.Fprintln(o.Stdout, r.Line())
		for _, x := range r.Extra {
			fmt.Fprintln(o.Stdout, x)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(o.Stderr, "orc-state %s: %s\n", o.Verb, n)
	}
	return refsync.Summary(verb, remote, results)
}

// syncOn is the syncer of remote, and the session a sync verb's key names
// by the selector rules of every session verb (a branch selects only its
// own session; a sanitized match of another branch's session is refused):
// its sessionId when the registry has it, else the key itself, which
// refsync matches against the remote's sessions; "" for every session.
func syncOn(txn *app.Txn, where *selection.Where, remote, key string) (*refsync.Syncer, string, error) {
	s, err := txn.Syncer(remote)
	if err != nil || key == "" {
		return s, "", err
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return nil, "", err
	}
	ss, err := where.FindKey(reg, key)
	switch {
	case err == nil:
		return s, ss.SessionID, nil
	case fault.Code(err) == fault.NotFound:
		return s, key, nil
	}
	return nil, "", err
}
