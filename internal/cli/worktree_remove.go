package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// WorktreeRemoveCmd is `worktree remove`.
type WorktreeRemoveCmd struct {
	Path  string `arg:"" help:"The linked worktree to remove (git worktree remove), then unbind."`
	Force bool   `help:"Remove it even while its agent holds live claims (they stay until released or expired)."`
}

// Run removes the worktree with git, then its binding: the pair of steps
// a person takes instead of git worktree remove alone, which leaves a
// worktree.gone finding. Refused while the worktree's agent holds live
// claims, unless --force.
func (c *WorktreeRemoveCmd) Run(e *Env) error {
	if c.Path == "" {
		return fault.Usagef("PATH is empty").WithHint("name the linked worktree to remove")
	}
	path := e.abs(c.Path)
	if !c.Force {
		if err := e.refuseHeldWorktree(path); err != nil {
			return err
		}
	}
	return e.removeWorktree(path, true)
}

// refuseHeldWorktree refuses a worktree whose agent (its binding's, else
// its path, the default agent id there) holds live claims in the
// session it is bound to.
func (e *Env) refuseHeldWorktree(path string) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	f, err := readBindings(d)
	if err != nil {
		return err
	}
	b := bindingAt(f, path)
	if b == nil {
		return nil
	}
	data, err := d.ReadFile(b.Session, state.LedgerFile)
	if err != nil || data == nil {
		return nil // no ledger (or none readable): nothing is held
	}
	l, err := slices.Parse(data)
	if err != nil {
		return nil
	}
	var held []string
	for _, h := range l.Holdings(e.now()) {
		if h.By == b.Agent || h.By == b.Path {
			held = append(held, h.ID)
		}
	}
	if len(held) == 0 {
		return nil
	}
	return fault.New(fault.NotFound, "the agent of %s holds live claims in session %s: %s", safetext.Escape(b.Path), b.Session, safetext.Escape(strings.Join(held, ", "))).
		WithHint("release them (orc-state slice release ID --session=%s --agent=AGENT), or pass --force", safetext.Quote(b.Session))
}

// removeWorktree runs git worktree remove on path when git still lists
// it as a linked worktree (a folder already gone is only unbound), then
// removes its binding under the lock, journaled in its session. withOut
// prints what was unbound as worktree leave does.
func (e *Env) removeWorktree(path string, withOut bool) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	if d.Git == nil {
		return fault.Usagef("not inside a git repository").WithHint("run it inside the repository the worktree belongs to")
	}
	wts, err := d.Git.Worktrees()
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot list the worktrees")
	}
	listed := false
	for _, w := range wts {
		if w.Path == "" || !gitx.SameDir(w.Path, path) && w.Path != path {
			continue
		}
		listed = true
		if w.Main {
			return fault.Usagef("%s is the main worktree", safetext.Escape(path)).WithHint("name a linked worktree (orc-state worktree list)")
		}
		if !w.Missing {
			ctx, cancel := context.WithTimeout(context.Background(), gitx.RemoveTimeout)
			err := d.Git.RemoveWorktree(ctx, path, false)
			cancel()
			if err != nil {
				return fault.Wrap(fault.Usage, err, "git worktree remove refused").
					WithHint("commit or discard the changes there, then run it again; the binding is kept")
			}
		}
		break
	}
	var left *binding.Binding
	err = e.Update(func(tx *state.Tx) error {
		left = nil
		f, err := readBindings(tx.Dir())
		if err != nil {
			return err
		}
		b := bindingAt(f, path)
		if b == nil {
			return nil
		}
		gone := *b
		f.Remove(b.Path)
		writeBindings(tx, f)
		if tx.Reg.Exact(gone.Session) != nil {
			tx.Touch(gone.Session, map[string]string{"worktree": gone.Path})
		}
		left = &gone
		return nil
	})
	if err != nil || !withOut {
		return err
	}
	if left == nil {
		if !listed {
			return fault.New(fault.NotFound, "%s is no worktree of this repository and bound to no session", safetext.Escape(path)).
				WithHint("orc-state worktree list shows the worktrees")
		}
		return nil // removed; it was bound to no session
	}
	_, err = fmt.Fprintf(e.Stdout, "%s\t%s\n", safetext.Escape(left.Path), left.Session)
	return err
}
