package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/app"

	"golang.org/x/term"

	"github.com/orc-state/orc-state/internal/board"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// BoardCmd is `board`.
type BoardCmd struct {
	Session string `help:"Only this session (a sessionId or its branch)." placeholder:"S" predictor:"session"`
	All     bool   `help:"Every session, finished ones too (default: those in progress or paused)."`
	Watch   bool   `help:"Redraw full screen when the state changes or a lease ticks, until q or Ctrl-C (a terminal only)."`
	JSON    bool   `name:"json" help:"The board's data as JSON (schema/board.schema.json)."`
}

// Run reads the board (no lock, nothing written) and prints it: text
// fitted to the terminal, coloured on one unless NO_COLOR is set; JSON;
// or, with --watch, full screen until q.
func (c *BoardCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir, p *Process) error {
	if c.Session != "" && c.All {
		return fault.Usagef("--session and --all choose the sessions two ways").WithHint("drop one of them")
	}
	if c.Watch && c.JSON {
		return fault.Usagef("--watch draws on a terminal; --json prints once").WithHint("drop one of them")
	}
	if c.Session != "" {
		if _, err := registry.KeyFor(c.Session); err != nil && registry.CheckKey(c.Session) != nil {
			return fault.Usagef("--session: %v", err).WithHint("orc-state sessions lists the sessions and their branches")
		}
	}
	d, err := sd.Dir()
	if err != nil {
		return err
	}
	gather := func() (board.Board, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return board.Board{}, err
		}
		b := board.Gather(d, reg, board.Options{Session: c.Session, All: c.All, Now: w.Now(), Env: w.Environ()})
		if c.Session != "" && len(b.Sessions) == 0 {
			return b, selection.Suggest(reg, fault.NotFoundf("no session %q", c.Session).
				WithHint("run orc-state sessions to list them"), c.Session, false)
		}
		return b, nil
	}
	b, err := gather()
	if err != nil {
		return err
	}
	out, _ := p.Stdout.(*os.File)
	tty := out != nil && term.IsTerminal(int(out.Fd()))
	color := tty && w.Getenv("NO_COLOR") == ""
	if c.JSON {
		return printJSON(o.Stdout, b, "  ")
	}
	if !c.Watch {
		width := 0
		if tty {
			if cols, _, err := term.GetSize(int(out.Fd())); err == nil {
				width = cols
			}
		}
		_, err := fmt.Fprint(o.Stdout, board.Render(b, board.View{Width: width, Color: color, Now: w.Now()}))
		return err
	}
	in, _ := p.Stdin.(*os.File)
	if !tty || in == nil || !term.IsTerminal(int(in.Fd())) {
		return fault.Usagef("--watch needs a terminal on stdin and stdout").WithHint("run orc-state board without --watch")
	}
	return board.Watch(context.Background(), board.Screen{In: in, Out: out, Color: color}, board.Source{
		Gather: func() board.Board {
			if nb, err := gather(); err == nil {
				b = nb
			} else {
				b.Problems = append(b.Problems[:len(b.Problems):len(b.Problems)], err.Error())
			}
			return b
		},
		Paths: func(b board.Board) []string { return boardPaths(d, b) },
		Now:   w.Now,
	})
}

// boardPaths are what a board's change shows in: the state dir (orc.json
// and worktrees.json are renamed into it) and each shown session's files
// folder (its journal's tip).
func boardPaths(d *state.Dir, b board.Board) []string {
	paths := []string{d.Path}
	for _, s := range b.Sessions {
		paths = append(paths, filepath.Clean(d.FilesDir(s.SessionID)))
	}
	return paths
}
