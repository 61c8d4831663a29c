package worktrees

// Unbinding: worktree leave (the binding only), worktree remove and the
// WorktreeRemove hook (git's worktree, then its binding).

import (
	"context"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// Leave removes the binding of the worktree at path ("" for the one the
// run is in; a folder that is gone is unbound too), never the worktree,
// under the lock, journaled in the session it named when that session
// exists. It returns the binding removed (nil when path was bound to
// nothing) and the path it looked for.
func (r Run) Leave(path string) (*binding.Binding, string, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, "", err
	}
	if path == "" {
		if d.Git == nil || d.Git.WorktreeRoot == "" {
			return nil, "", fault.Usagef("not inside a git worktree").WithHint("run it inside the bound worktree, or pass its PATH")
		}
		path = d.Git.WorktreeRoot
	}
	left, err := r.unbind(path)
	return left, path, err
}

// Remove removes the linked worktree at path with git, then its binding:
// the pair of steps a person takes instead of git worktree remove alone,
// which leaves a worktree.gone finding. It is refused while the
// worktree's agent holds live claims in its session, unless force. It
// returns the binding removed; a path that is neither a worktree git
// lists nor bound is exit 1.
func (r Run) Remove(path string, force bool) (*binding.Binding, error) {
	if !force {
		if err := r.refuseHeld(path); err != nil {
			return nil, err
		}
	}
	left, listed, err := r.removeAndUnbind(path)
	if err == nil && left == nil && !listed {
		return nil, fault.New(fault.NotFound, "%s is no worktree of this repository and bound to no session", safetext.Escape(path)).
			WithHint("orc-state worktree list shows the worktrees")
	}
	return left, err
}

// Discard is the WorktreeRemove hook's Remove: git worktree remove (never
// forced: git keeps a worktree with changes) when git still lists path,
// then its binding, also when the folder is gone; nothing to remove is no
// error, and neither are live claims (the client removes the worktree).
func (r Run) Discard(path string) error {
	_, _, err := r.removeAndUnbind(path)
	return err
}

// refuseHeld refuses a worktree whose agent (its binding's, else its
// path, the default agent id there) holds live claims in the session it
// is bound to.
func (r Run) refuseHeld(path string) error {
	d, err := r.Where.Dir()
	if err != nil {
		return err
	}
	f, err := selection.ReadBindings(d)
	if err != nil {
		return err
	}
	b := At(f, path)
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
	for _, h := range l.Holdings(r.Now()) {
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

// removeAndUnbind runs git worktree remove on path when git still lists
// it as a linked worktree (a folder already gone is only unbound), then
// removes its binding under the lock, journaled in its session; listed
// says whether git listed path.
func (r Run) removeAndUnbind(path string) (left *binding.Binding, listed bool, err error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, false, err
	}
	if d.Git == nil {
		return nil, false, fault.Usagef("not inside a git repository").WithHint("run it inside the repository the worktree belongs to")
	}
	wts, err := d.Git.Worktrees()
	if err != nil {
		return nil, false, fault.Wrap(fault.Invalid, err, "cannot list the worktrees")
	}
	for _, w := range wts {
		if w.Path == "" || !gitx.SameDir(w.Path, path) && w.Path != path {
			continue
		}
		listed = true
		if w.Main {
			return nil, true, fault.Usagef("%s is the main worktree", safetext.Escape(path)).WithHint("name a linked worktree (orc-state worktree list)")
		}
		if !w.Missing {
			ctx, cancel := context.WithTimeout(context.Background(), gitx.RemoveTimeout)
			err := d.Git.RemoveWorktree(ctx, path, false)
			cancel()
			if err != nil {
				return nil, true, fault.Wrap(fault.Usage, err, "git worktree remove refused").
					WithHint("commit or discard the changes there, then run it again; the binding is kept")
			}
		}
		break
	}
	left, err = r.unbind(path)
	return left, listed, err
}

// unbind removes the binding of the worktree at path, under the lock,
// journaled in the session it named when that session exists; the binding
// it removed, nil when path was bound to nothing.
func (r Run) unbind(path string) (*binding.Binding, error) {
	var left *binding.Binding
	err := r.update(func(tx *state.Tx) error {
		left = nil // the function may run twice
		f, err := selection.ReadBindings(tx.Dir())
		if err != nil {
			return err
		}
		b := At(f, path)
		if b == nil {
			return nil
		}
		gone := *b
		f.Remove(b.Path)
		Write(tx, f)
		if tx.Reg.Exact(gone.Session) != nil {
			tx.Touch(gone.Session, map[string]string{"worktree": gone.Path})
		}
		left = &gone
		return nil
	})
	return left, err
}
