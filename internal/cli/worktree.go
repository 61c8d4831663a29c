package cli

// What the worktree verbs share, whose work is internal/worktrees', and
// the binding lookup every session verb makes (docs/protocol.md §3): a
// linked worktree bound to a session (.orc/worktrees.json, package
// binding) selects that session when no flag and no $ORC_SESSION names
// one, and its agent is the default agent id.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// worktreeBinding is the binding of the worktree the run is in
// (selection.WorktreeBinding), read once; nil when it has none.
func (e *Env) worktreeBinding() (*binding.Binding, error) {
	if !e.bindingRead {
		e.bindingRead = true
		d, err := e.Dir()
		if err != nil {
			e.boundErr = err
			return nil, err
		}
		e.bound, e.boundErr = selection.WorktreeBinding(d)
	}
	return e.bound, e.boundErr
}

// unboundLinked reports whether the run is in a linked worktree that no
// binding names (selection.Where.UnboundLinked).
func (e *Env) unboundLinked() bool { return e.where().UnboundLinked() }

// worktreeRun is this run as the worktree verbs' work reads it: where
// selection looks, the transaction's options, the environment, the clock.
func (e *Env) worktreeRun() worktrees.Run {
	return worktrees.Run{Where: e.where(), Environ: e.proc.Environ, Now: e.now,
		Options: func() (state.Options, error) { return e.txOptions(state.Options{}) }}
}

// printRow prints a worktree's row as worktree list does; nothing for nil.
func (e *Env) printRow(r *worktrees.Row) error {
	if r == nil {
		return nil
	}
	_, err := fmt.Fprintln(e.Stdout, r.Text())
	return err
}

// printLeft prints the binding a verb removed: its path and session.
func (e *Env) printLeft(b *binding.Binding) error {
	_, err := fmt.Fprintf(e.Stdout, "%s\t%s\n", safetext.Escape(b.Path), b.Session)
	return err
}
