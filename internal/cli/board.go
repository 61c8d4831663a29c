package cli

import (
	"fmt"
	"os"

	"golang.org/x/term"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
)

// BoardCmd is `board`.
type BoardCmd struct {
	Session string `help:"Only this session (a sessionId or its branch)." placeholder:"S" predictor:"session"`
	All     bool   `help:"Every session, finished ones too (default: those in progress or paused)."`
	Watch   bool   `help:"Redraw full screen when the state changes or a lease ticks, until q or Ctrl-C (a terminal only)."`
	JSON    bool   `name:"json" help:"The board's data as JSON (schema/board.schema.json)."`
}

// Run reads the board (app.Board: no lock, nothing written) and prints
// it: text fitted to the terminal, coloured on one unless NO_COLOR is
// set; JSON; or, with --watch, full screen until q. What the terminal is
// (stdout's, and stdin's for --watch) is found here, from the process.
func (c *BoardCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, p *Process) error {
	if c.Session != "" && c.All {
		return fault.Usagef("--session and --all choose the sessions two ways").WithHint("drop one of them")
	}
	if c.Watch && c.JSON {
		return fault.Usagef("--watch draws on a terminal; --json prints once").WithHint("drop one of them")
	}
	params := app.BoardParams{Session: c.Session, All: c.All, JSON: c.JSON, Watch: c.Watch}
	if out, _ := p.Stdout.(*os.File); out != nil && term.IsTerminal(int(out.Fd())) {
		params.Out = out
		if c.Watch {
			if in, _ := p.Stdin.(*os.File); in != nil && term.IsTerminal(int(in.Fd())) {
				params.In = in
			}
		} else if !c.JSON {
			if cols, _, err := term.GetSize(int(out.Fd())); err == nil {
				params.Width = cols
			}
		}
	}
	shown, err := app.Board(w, sd, params)
	if err != nil || c.Watch {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, shown.Board, "  ")
	}
	_, err = fmt.Fprint(o.Stdout, shown.Text)
	return err
}
