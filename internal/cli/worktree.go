package cli

// What the worktree verbs share, and the binding lookup every session verb
// makes (docs/protocol.md §3): a linked worktree bound to a session
// (.orc/worktrees.json, package binding) selects that session when no flag
// and no $ORC_SESSION names one, and its agent is the default agent id.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
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

// worktreeBinding is the binding of the worktree the run is in; nil when
// it has none. Only a linked worktree can be bound: in the main worktree
// (and outside a repository) the file is not even read. A binding whose
// git dir names this worktree but whose path is another (an earlier
// worktree of the same name, removed) is not this worktree's.
func (e *Env) worktreeBinding() (*binding.Binding, error) {
	if e.bindingRead {
		return e.bound, e.boundErr
	}
	e.bindingRead = true
	d, err := e.Dir()
	if err != nil {
		e.boundErr = err
		return nil, err
	}
	l := d.Git
	if l == nil || !l.Linked || l.WorktreeRoot == "" {
		return nil, nil
	}
	f, err := readBindings(d)
	if err != nil {
		e.boundErr = err
		return nil, err
	}
	if b := f.ByGitDir(l.GitDir); b != nil && b.Names(l.GitDir, l.WorktreeRoot, binding.MadeAt(l.GitDir), gitx.SameDir) {
		e.bound = b
	}
	return e.bound, nil
}

// unboundLinked reports whether the run is in a linked worktree that no
// binding names: where an agent who found no session must be told to
// join one, never to register a second.
func (e *Env) unboundLinked() bool {
	d, err := e.Dir()
	if err != nil || d.Git == nil || !d.Git.Linked || d.Git.WorktreeRoot == "" {
		return false
	}
	b, err := e.worktreeBinding()
	return err == nil && b == nil
}

// liveIDs are the sessionIds of the sessions in progress or paused, in
// registry order.
func liveIDs(reg *registry.Registry) []string {
	var ids []string
	for _, s := range reg.Sessions {
		if s.Status == "in_progress" || s.Status == "paused" {
			ids = append(ids, s.SessionID)
		}
	}
	return ids
}

// joinHint is the hint for an unbound linked worktree that found no
// session: join one of the live sessions (named), never init a second
// ledger; "" when there is no live session to join.
func (e *Env) joinHint() string {
	if !e.unboundLinked() {
		return ""
	}
	d, err := e.Dir()
	if err != nil {
		return ""
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return ""
	}
	ids := liveIDs(reg)
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("this worktree is bound to no session; the live session is %s: orc-state worktree join --session=%s binds this worktree to it (run here)", safetext.Escape(ids[0]), safetext.Quote(ids[0]))
	}
	return fmt.Sprintf("this worktree is bound to no session; the live sessions are %s: orc-state worktree join --session S binds this worktree to one (run here)", quotedList(ids, 5))
}

// withJoinHint replaces the hint of a not-found error with joinHint in an
// unbound linked worktree.
func (e *Env) withJoinHint(err error) error {
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.NotFound {
		return err
	}
	if h := e.joinHint(); h != "" {
		copied := *fe
		copied.Hint = h
		return &copied
	}
	return err
}

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
	c := choice{id: id, own: head, via: viaJoin}
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

// quotedList lists session ids for a hint that asks for one of them: each
// quoted, at most n, then how many more.
func quotedList(ids []string, n int) string {
	var out []string
	for i, id := range ids {
		if i == n {
			out = append(out, fmt.Sprintf("(+%d more)", len(ids)-n))
			break
		}
		out = append(out, safetext.Quote(id))
	}
	return strings.Join(out, ", ")
}
