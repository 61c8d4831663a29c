package cli

// What the worktree verbs share, and the binding lookup every session verb
// makes (docs/protocol.md §3): a linked worktree bound to a session
// (.orc/worktrees.json, package binding) selects that session when no flag
// and no $ORC_SESSION names one, and its agent is the default agent id.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// readBindings reads worktrees.json strictly, without a lock; no file is
// an empty File. An invalid file is exit 3 naming doctor.
func readBindings(d *state.Dir) (*binding.File, error) {
	data, err := d.ReadStateFile(binding.FileName)
	if err != nil {
		return nil, err
	}
	return binding.Parse(data)
}

// writeBindings stages worktrees.json in the transaction.
func writeBindings(tx *state.Tx, f *binding.File) {
	tx.WriteState(binding.FileName, f.Marshal())
}

// unbindSessions drops the bindings of sessions that a transaction
// removes (session remove, cleanup); the worktrees themselves stay.
func unbindSessions(tx *state.Tx, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	data, err := tx.Dir().ReadStateFile(binding.FileName)
	if err != nil || data == nil {
		return err
	}
	f, err := binding.Parse(data)
	if err != nil {
		return err
	}
	if len(f.RemoveSessions(ids...)) > 0 {
		writeBindings(tx, f)
	}
	return nil
}

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

// bindWorktree binds the linked worktree l to session id as agent ("" for
// none) in one transaction: the session must exist, the branch checked out
// there must have no session of its own, and agent must be bound to no
// other worktree of the session. A worktree bound to id already gets the
// new agent (none given: nothing changes); one bound to another session is
// refused (worktree leave first). The change is journaled in the session.
func (e *Env) bindWorktree(l gitx.Layout, id, agent string) error {
	head, detached, _ := l.CurrentBranch()
	if detached {
		head = ""
	}
	c := choice{ID: id, Own: head, Via: selection.ViaJoin}
	return e.onChoice(c, func(tx *state.Tx, s *registry.Session) error {
		f, err := readBindings(tx.Dir())
		if err != nil {
			return err
		}
		made := binding.MadeAt(l.GitDir)
		b := binding.Binding{Path: l.WorktreeRoot, GitDir: l.GitDir, Session: s.SessionID, Agent: agent, BoundAt: e.stamp(), GitDirMade: made}
		if old := f.ByGitDir(l.GitDir); old != nil && old.Names(l.GitDir, l.WorktreeRoot, made, gitx.SameDir) {
			switch {
			case old.Session != s.SessionID:
				return fault.Usagef("this worktree is already bound to session %s", safetext.Escape(old.Session)).
					WithHint("orc-state worktree leave, then orc-state worktree join --session=%s", safetext.Quote(s.SessionID))
			case agent == "" || agent == old.Agent:
				return nil // bound so already: nothing to write
			}
		}
		if h := f.AgentHolder(s.SessionID, agent, l.GitDir); h != nil {
			return agentTaken(agent, s.SessionID, h)
		}
		if err := b.Check(); err != nil {
			return fault.Usagef("%v", err).WithHint("bind a worktree whose path is one line")
		}
		f.Put(b)
		writeBindings(tx, f)
		args := map[string]string{"worktree": b.Path}
		if agent != "" {
			args["agent"] = agent
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
}

// printBound prints the row of the worktree l as worktree list does.
func (e *Env) printBound(l gitx.Layout) error {
	d, err := e.Dir()
	if err != nil {
		return err
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return err
	}
	f, err := readBindings(d)
	if err != nil {
		return err
	}
	trees, err := l.Worktrees()
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "cannot list the worktrees")
	}
	for _, r := range worktreeRows(d, reg, f, trees, e.now()) {
		if gitx.SameDir(r.Path, l.WorktreeRoot) && !r.Gone {
			_, err := fmt.Fprintln(e.Stdout, r.text())
			return err
		}
	}
	return nil
}
