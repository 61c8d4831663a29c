package cli

import (
	"io"

	"github.com/orc-state/orc-state/internal/app"
)

// StatuslineCmd is `statusline`. Main dispatches it before the parser and
// reads these flags leniently (app.Statusline); they are here for --help.
type StatuslineCmd struct {
	Style          string `help:"full (the default; narrows with the terminal) or compact (always one line)." placeholder:"STYLE"`
	ContextReserve int    `name:"context-reserve" help:"Percent of the context window kept back (e.g. the auto-compact buffer); the figure shown is the share of the rest." placeholder:"N"`
	Off            bool   `help:"Print nothing (the context level is still recorded for hook post-tool-use)."`
}

// Help is the detail of statusline --help: the payload fields read.
func (c *StatuslineCmd) Help() string { return app.StatuslineHelp() }

// Run renders the statusline (see runStatusline); kong reaches it only for
// --help, which Main does not dispatch early.
func (c *StatuslineCmd) Run(p *Process) error {
	runStatusline(p, nil)
	return nil
}

// runStatusline is the statusline path, dispatched before the parser is
// built (like line): app.Statusline renders it from stdin (no lock, no
// git on the render path), or is the detached refresher. It prints at
// most two rows and always exits 0.
func runStatusline(proc *Process, args []string) {
	stdout := proc.Stdout
	defer func() {
		if recover() != nil {
			io.WriteString(stdout, "orc\n")
		}
	}()
	text, ok := app.Statusline(args, proc.Stdin, app.StatuslineWorld{
		Dir: proc.Dir, Environ: proc.Environ, TempDir: proc.tempDir(), Home: proc.homeDir(),
		ClaimsAt: proc.Now(), PlaceWait: proc.PlaceWait, Executable: proc.executable,
	})
	if ok {
		io.WriteString(stdout, text)
	}
}
