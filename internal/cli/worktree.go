package cli

// What the worktree verbs share, whose work is internal/app's (over
// internal/worktrees): how they print a worktree's row and a binding they
// removed.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// printRow prints a worktree's row as worktree list does; nothing for "".
func printRow(o *app.Streams, row string) error {
	if row == "" {
		return nil
	}
	_, err := fmt.Fprintln(o.Stdout, row)
	return err
}

// printLeft prints the binding a verb removed: its path and session.
func printLeft(o *app.Streams, l app.WorktreeLeft) error {
	_, err := fmt.Fprintf(o.Stdout, "%s\t%s\n", safetext.Escape(l.Path), l.Session)
	return err
}
