package cli

import (
	"encoding/json"
	"strings"

	"github.com/orc-state/orc-state/internal/sessionline"
)

// LineCmd is `line` (dispatched by runLine with a lenient parser; declared
// here for --help). The choice and the reading are sessionline's.
type LineCmd struct {
	BranchFlag
}

// runLine is the statusline path: it parses its arguments leniently
// (unknown ones are ignored), takes no lock, runs no git subprocess, reads
// the registry leniently (legacy and invalid registries still render), and
// prints one line of JSON or nothing. It never writes to stderr.
func runLine(p *Process, args []string) {
	flags := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, name := range []string{"--dir", "--branch", "--session"} {
			switch {
			case a == name && i+1 < len(args):
				i++
				flags[name] = args[i]
			case strings.HasPrefix(a, name+"="):
				flags[name] = a[len(name)+1:]
			}
		}
	}
	c := sessionline.Choice{Branch: flags["--branch"], ID: flags["--session"], Named: flags["--branch"] != "", Env: p.getenv("ORC_SESSION")}
	out, ok := sessionline.For(flags["--dir"], p.Dir, p.Environ, c, p.Now())
	if !ok {
		return
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	p.Stdout.Write(append(b, '\n'))
}
