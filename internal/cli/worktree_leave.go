package cli

import (
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// WorktreeLeaveCmd is `worktree leave`.
type WorktreeLeaveCmd struct {
	Path string `arg:"" optional:"" help:"The worktree to unbind (also one that is gone); default: the one this runs in."`
}

// Run removes the binding of the worktree (never the worktree), under the
// lock, journaled in the session it named when that session exists. A
// worktree bound to nothing is left as it is: exit 0, saying so.
func (c *WorktreeLeaveCmd) Run(e *Env) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	path := e.abs(c.Path)
	if c.Path == "" {
		if d.Git == nil || d.Git.WorktreeRoot == "" {
			return fault.Usagef("not inside a git worktree").WithHint("run it inside the bound worktree, or pass its PATH")
		}
		path = d.Git.WorktreeRoot
	}
	left, err := e.unbind(path)
	if err != nil {
		return err
	}
	if left == nil {
		e.warn("%s is bound to no session; nothing to do", safetext.Escape(path))
		return nil
	}
	_, err = fmt.Fprintf(e.Stdout, "%s\t%s\n", safetext.Escape(left.Path), left.Session)
	return err
}

// unbind removes the binding of the worktree at path, under the lock,
// journaled in the session it named when that session exists; the binding
// it removed, nil when path was bound to nothing.
func (e *Env) unbind(path string) (*binding.Binding, error) {
	var left *binding.Binding
	err := e.Update(func(tx *state.Tx) error {
		left = nil // the function may run twice
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
	return left, err
}

// bindingAt is the binding whose path is path (the same folder, or the
// same name once cleaned when the folder is gone).
func bindingAt(f *binding.File, path string) *binding.Binding {
	path = filepath.Clean(path)
	for i := range f.Worktrees {
		if b := &f.Worktrees[i]; b.Path == path || gitx.SameDir(b.Path, path) {
			return b
		}
	}
	return nil
}
