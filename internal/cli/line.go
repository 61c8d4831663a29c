package cli

import (
	"strings"

	"github.com/orc-state/orc-state/internal/app"
)

// LineCmd is `line` (dispatched by runLine with a lenient parser; declared
// here for --help). The choice and the reading are app.Line's.
type LineCmd struct {
	BranchFlag
}

// runLine is the statusline path: it parses its arguments leniently
// (unknown ones are ignored) and app.Line takes no lock, runs no git
// subprocess and reads the registry leniently (legacy and invalid
// registries still render); it prints one line of JSON or nothing. It
// never writes to stderr.
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
	b := app.Line(app.LineParams{
		Dir: flags["--dir"], Branch: flags["--branch"], Session: flags["--session"],
		Wd: p.Dir, Environ: p.Environ, Now: p.Now(),
	})
	if b != nil {
		p.Stdout.Write(b)
	}
}
