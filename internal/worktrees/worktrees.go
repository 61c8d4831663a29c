// Package worktrees owns parallel agents' worktrees (docs/protocol.md
// §3): binding a linked worktree to a session as an agent inside the one
// transaction (worktree join, add and the WorktreeCreate hook), what
// `worktree add` asks git and in which order, the rows of `worktree list`
// and their states (gone, other repository, detached, bound or the
// branch's own), the rules of leave and remove (never a worktree whose
// agent holds live claims, unless forced) and what the WorktreeCreate and
// WorktreeRemove hooks decide; the agent ids parallel agents work as (a
// subagent's, a new --agent) and what a stopped subagent's claims become.
//
// The file format, .orc/worktrees.json, is package binding's; git's side
// (listing, adding and removing worktrees) is package gitx's; which
// session a run selects is package selection's. It reads the run through
// Run (plain values and functions), never the application's own types;
// the worktree verbs' work in internal/app calls one function here and
// returns what it returns. It imports selection, verify, state, binding,
// gitx, registry, slices, journal and leaf packages; internal/app imports
// it, and nothing below the application does.
package worktrees

import (
	"context"
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Run is what the worktree verbs read of the run. Each function is asked
// only when a step needs it, so an error comes from the first step that
// needs it, as before the lock.
type Run struct {
	// Where is where selection looks (the verb's --session, the
	// environment, the state dir and this worktree's binding).
	Where selection.Where
	// Options are the run's transaction options (the verb and actor it
	// journals, the lock timeout, the streams), asked for as a
	// transaction opens: an actor the journal cannot keep is refused then.
	Options func() (state.Options, error)
	Environ environ.List     // the run's environment; git is asked with it cleaned
	Now     func() time.Time // the time claims are judged by
}

// on runs fn in one transaction on the session c selects.
func (r Run) on(c selection.Choice, fn func(tx *state.Tx, s *registry.Session) error) error {
	d, err := r.Where.Dir()
	if err != nil {
		return err
	}
	opts, err := r.Options()
	if err != nil {
		return err
	}
	return r.Where.On(d, c, opts, fn)
}

// update runs fn in one transaction on the state dir; fn may run twice.
func (r Run) update(fn func(tx *state.Tx) error) error {
	d, err := r.Where.Dir()
	if err != nil {
		return err
	}
	opts, err := r.Options()
	if err != nil {
		return err
	}
	return d.Update(context.Background(), opts, fn)
}

// Write stages worktrees.json in the transaction.
func Write(tx *state.Tx, f *binding.File) {
	tx.WriteState(binding.FileName, f.Marshal())
}

// At is the binding whose path is path (the same folder, or the same name
// once cleaned when the folder is gone); nil when there is none.
func At(f *binding.File, path string) *binding.Binding {
	path = filepath.Clean(path)
	for i := range f.Worktrees {
		if b := &f.Worktrees[i]; b.Path == path || gitx.SameDir(b.Path, path) {
			return b
		}
	}
	return nil
}
