package selection

// The run as plain values, for a caller below the CLI that decides a
// verb's whole answer itself, and who the run's agent is.

import (
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// Run is what selection reads of a run, as plain values: the verb's
// --session, the global --dir, the working directory, the environment and
// the recorded time's clock.
type Run struct {
	Flag    string           // the verb's --session S; "" when not given
	DirFlag string           // the global --dir; "" when not given
	Wd      string           // the working directory, absolute
	Environ environ.List     // the run's environment
	Clock   func() time.Time // the time a transaction records (state.Dir.Clock)
}

// Where is the Where of r: the state dir is resolved on first need and
// kept, and the worktree's binding read once, as app.StateDir does.
func (r Run) Where() Where {
	var (
		d        *state.Dir
		dirErr   error
		resolved bool
		b        *binding.Binding
		bErr     error
		bound    bool
	)
	dir := func() (*state.Dir, error) {
		if !resolved {
			resolved = true
			if d, dirErr = state.Resolve(r.DirFlag, r.Wd, r.Environ); dirErr == nil {
				d.Clock = r.Clock
			}
		}
		return d, dirErr
	}
	return Where{
		Flag:   r.Flag,
		Getenv: r.Environ.Get,
		Dir:    dir,
		Binding: func() (*binding.Binding, error) {
			if !bound {
				bound = true
				var dd *state.Dir
				if dd, bErr = dir(); bErr == nil {
					b, bErr = WorktreeBinding(dd)
				}
			}
			return b, bErr
		},
	}
}

// Agent is the agent a slice claim is made for, and whose claims a packet
// shows first: flag (--agent), else the agent the worktree's binding
// names, else $ORC_ACTOR, else the worktree's root (wd outside a
// repository). The default is stable across calls of one agent and
// differs between worktrees, which is how Claude Code runs parallel
// subagents; the binding's agent comes before $ORC_ACTOR because a host
// may hand one environment to every subagent it starts. A name slices cannot keep, or one shaped like a
// credential, is refused naming where it came from.
func (w Where) Agent(flag, wd string) (string, error) {
	a, from := flag, "--agent"
	if a == "" {
		if b, err := w.Binding(); err == nil && b != nil && b.Agent != "" {
			a, from = b.Agent, ViaBinding
		}
	}
	if a == "" {
		a, from = w.Getenv("ORC_ACTOR"), "$ORC_ACTOR"
	}
	if a == "" {
		a, from = wd, "the working directory"
		if d, err := w.Dir(); err == nil && d.Git != nil {
			a, from = d.Git.WorktreeRoot, "the worktree path"
		}
	}
	if err := slices.CheckAgent(a); err != nil {
		return "", fault.Usagef("%s: %v", from, err).WithHint("pass --agent NAME")
	}
	if err := input.RefuseSecrets(from, []byte(a)); err != nil {
		return "", err
	}
	return a, nil
}
