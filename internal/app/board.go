package app

import (
	"context"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/board"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// BoardParams are which sessions `board` shows (Session alone, or All,
// else those in progress or paused), how (JSON, Watch, else text), and the
// terminal as the command line found it.
type BoardParams struct {
	Session          string
	All, JSON, Watch bool
	Out              *os.File // stdout, when it is a terminal; nil otherwise
	In               *os.File // stdin, with Watch, when it is a terminal as well; nil otherwise
	Width            int      // stdout's columns, for the text on a terminal; 0 when unknown
}

// BoardShown is what a board prints: the board's data, for JSON, and its
// text, fitted to the terminal (both empty after a watch).
type BoardShown struct {
	Board board.Board
	Text  string
}

// Board reads the board (board.Gather; no lock, nothing written) and
// returns it as JSON's data or, without JSON, as text fitted to the
// terminal, coloured on one unless NO_COLOR is set; with Watch it draws it
// full screen, redrawn when the state changes or a lease ticks, until q
// (board.Watch), which needs a terminal on stdin and stdout. A Session
// that could be no session's key, or that names none, is refused.
func Board(w *World, sd *StateDir, p BoardParams) (BoardShown, error) {
	if p.Session != "" {
		if _, err := registry.KeyFor(p.Session); err != nil && registry.CheckKey(p.Session) != nil {
			return BoardShown{}, fault.Usagef("--session: %v", err).WithHint("orc-state sessions lists the sessions and their branches")
		}
	}
	d, err := sd.Dir()
	if err != nil {
		return BoardShown{}, err
	}
	gather := func() (board.Board, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return board.Board{}, err
		}
		b := board.Gather(d, reg, board.Options{Session: p.Session, All: p.All, Now: w.Now(), Env: w.Environ()})
		if p.Session != "" && len(b.Sessions) == 0 {
			return b, selection.Suggest(reg, fault.NotFoundf("no session %q", p.Session).
				WithHint("run orc-state sessions to list them"), p.Session, false)
		}
		return b, nil
	}
	b, err := gather()
	if err != nil {
		return BoardShown{}, err
	}
	color := p.Out != nil && w.Getenv("NO_COLOR") == ""
	if p.JSON {
		return BoardShown{Board: b}, nil
	}
	if !p.Watch {
		return BoardShown{Text: board.Render(b, board.View{Width: p.Width, Color: color, Now: w.Now()})}, nil
	}
	if p.Out == nil || p.In == nil {
		return BoardShown{}, fault.Usagef("--watch needs a terminal on stdin and stdout").WithHint("run orc-state board without --watch")
	}
	return BoardShown{}, board.Watch(context.Background(), board.Screen{In: p.In, Out: p.Out, Color: color}, board.Source{
		Gather: func() board.Board {
			if nb, err := gather(); err == nil {
				b = nb
			} else {
				b.Problems = append(b.Problems[:len(b.Problems):len(b.Problems)], err.Error())
			}
			return b
		},
		Paths: func(b board.Board) []string { return boardWatchPaths(d, b) },
		Now:   w.Now,
	})
}

// boardWatchPaths are what a board's change shows in: the state dir
// (orc.json and worktrees.json are renamed into it) and each shown
// session's files folder (its journal's tip).
func boardWatchPaths(d *state.Dir, b board.Board) []string {
	paths := []string{d.Path}
	for _, s := range b.Sessions {
		paths = append(paths, filepath.Clean(d.FilesDir(s.SessionID)))
	}
	return paths
}
