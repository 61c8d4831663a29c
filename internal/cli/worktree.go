package cli

// What the worktree verbs share, whose work is internal/worktrees': how
// they print a worktree's row and a binding they removed.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// printRow prints a worktree's row as worktree list does; nothing for nil.
func printRow(o *app.Streams, r *worktrees.Row) error {
	if r == nil {
		return nil
	}
	_, err := fmt.Fprintln(o.Stdout, r.Text())
	return err
}

// printLeft prints the binding a verb removed: its path and session.
func printLeft(o *app.Streams, b *binding.Binding) error {
	_, err := fmt.Fprintf(o.Stdout, "%s\t%s\n", safetext.Escape(b.Path), b.Session)
	return err
}
