package cli

import (
	"fmt"
	"io"

	"github.com/orc-state/orc-state/internal/safetext"
)

// warnUnknownEnv writes one warning line on stderr for each ORC_*
// variable of the run's environment that orc-state gives no meaning,
// naming the nearest known one (environ.List.Unknown). It never writes
// to stdout.
func warnUnknownEnv(p *Process, args []string, stderr io.Writer) {
	unknown := p.Environ.Unknown()
	if len(unknown) == 0 {
		return
	}
	verb := "orc-state"
	if first, second := leadingWords(args); isVerb(first + " " + second) {
		verb += " " + first + " " + second
	} else if isVerb(first) {
		verb += " " + first
	}
	for _, u := range unknown {
		fmt.Fprintf(stderr, "%s: warning: $%s is not a variable orc-state reads; did you mean %s?\n", verb, safetext.Escape(u.Name), u.Nearest)
	}
}
