package app

import (
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
)

// StateDir is the run's state dir and the binding of the worktree it runs
// in, each found on first use and kept: a verb that asks for neither pays
// for neither. The state dir is resolved from --dir, $ORC_STATE_DIR or the
// working directory (state.Resolve); a linked worktree bound to a session
// (.orc/worktrees.json, package binding) selects it when no flag and no
// $ORC_SESSION names one, and its agent is the default agent id
// (docs/protocol.md §3).
type StateDir struct {
	flag        string // the global --dir; "" when not given
	w           *World
	dir         *state.Dir
	bindingRead bool
	bound       *binding.Binding
	boundErr    error
}

// NewStateDir is the state dir of a run in w, given --dir as flag ("" when
// not given); nothing is looked for until asked.
func NewStateDir(flag string, w *World) *StateDir { return &StateDir{flag: flag, w: w} }

// Dir resolves the state dir once.
func (sd *StateDir) Dir() (*state.Dir, error) {
	if sd.dir == nil {
		d, err := state.Resolve(sd.flag, sd.w.wd, sd.w.environ)
		if err != nil {
			return nil, err
		}
		d.Clock = sd.w.stamp
		sd.dir = d
	}
	return sd.dir, nil
}

// Binding is the binding of the worktree the run is in
// (selection.WorktreeBinding), read once; nil when it has none.
func (sd *StateDir) Binding() (*binding.Binding, error) {
	if !sd.bindingRead {
		sd.bindingRead = true
		d, err := sd.Dir()
		if err != nil {
			sd.boundErr = err
			return nil, err
		}
		sd.bound, sd.boundErr = selection.WorktreeBinding(d)
	}
	return sd.bound, sd.boundErr
}

// Enter makes dir the run's working directory, for a hook that looks at
// another place than its payload's cwd: the state dir and the binding are
// found again from there.
func (sd *StateDir) Enter(dir string) {
	sd.w.wd, sd.dir = dir, nil
	sd.bindingRead, sd.bound, sd.boundErr = false, nil, nil
}

// Where is what selection reads of this run: the verb's --session (flag),
// the environment, the state dir and the worktree's binding.
func (sd *StateDir) Where(flag string) *selection.Where {
	return &selection.Where{Flag: flag, Getenv: sd.w.Getenv, Dir: sd.Dir, Binding: sd.Binding}
}

// Plain is this run as plain values, for a package that decides a verb's
// whole answer and finds the state dir itself (selection.Run).
func (sd *StateDir) Plain(flag string) selection.Run {
	return selection.Run{Flag: flag, DirFlag: sd.flag, Wd: sd.w.wd, Environ: sd.w.environ, Clock: sd.w.stamp}
}
