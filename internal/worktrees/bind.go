package worktrees

// Binding a worktree to a session: worktree join here, and the step that
// completes worktree add and the WorktreeCreate hook.

import (
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Join binds the linked worktree the run is in to session (--session,
// else $ORC_SESSION) as agent ("" for none) and returns its row as List
// shows it (nil when git no longer lists it). Joining the session it is
// bound to already changes nothing (or only the agent, when given). The
// main worktree is never bound: there the branch selects its session.
func (r Run) Join(session, agent string) (*Row, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, err
	}
	l := d.Git
	switch {
	case l == nil || l.WorktreeRoot == "":
		return nil, fault.Usagef("not inside a git worktree").WithHint("run orc-state worktree join inside the linked worktree to bind")
	case !l.Linked:
		return nil, fault.Usagef("this is the repository's main worktree; only a linked worktree is bound (here the branch selects its session)").
			WithHint("orc-state worktree add PATH makes a linked worktree bound to the session")
	}
	id := session
	if id == "" {
		id = r.Where.Getenv("ORC_SESSION")
	}
	if id == "" {
		hint := "orc-state worktree join --session S (orc-state sessions lists them)"
		if reg, _, err := d.ReadRegistry(); err == nil {
			if ids := selection.LiveIDs(reg); len(ids) > 0 {
				hint = "orc-state worktree join --session S, one of the live sessions: " + selection.QuotedList(ids, 5)
			}
		}
		return nil, fault.Usagef("name the session this worktree joins").WithHint("%s", hint)
	}
	if err := registry.CheckKey(id); err != nil {
		return nil, fault.Usagef("--session: %v", err).WithHint("orc-state sessions lists the sessionIds")
	}
	if err := r.bind(*l, id, agent); err != nil {
		return nil, err
	}
	return Bound(d, *l, r.Now())
}

// bind binds the linked worktree l to session id as agent ("" for none) in
// one transaction: the session must exist, the branch checked out there
// must have no session of its own, and agent must be bound to no other
// worktree of the session. A worktree bound to id already gets the new
// agent (none given: nothing changes); one bound to another session is
// refused (worktree leave first). The change is journaled in the session.
func (r Run) bind(l gitx.Layout, id, agent string) error {
	head, detached, _ := l.CurrentBranch()
	if detached {
		head = ""
	}
	c := selection.Choice{ID: id, Own: head, Via: selection.ViaJoin}
	return r.on(c, func(tx *state.Tx, s *registry.Session) error { return bindIn(tx, s, l, agent) })
}

// bindIn is bind's change inside the transaction, on the session found.
func bindIn(tx *state.Tx, s *registry.Session, l gitx.Layout, agent string) error {
	f, err := selection.ReadBindings(tx.Dir())
	if err != nil {
		return err
	}
	made := binding.MadeAt(l.GitDir)
	b := binding.Binding{Path: l.WorktreeRoot, GitDir: l.GitDir, Session: s.SessionID, Agent: agent, BoundAt: tx.Dir().Now(), GitDirMade: made}
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
	Write(tx, f)
	args := map[string]string{"worktree": b.Path}
	if agent != "" {
		args["agent"] = agent
	}
	tx.Touch(s.SessionID, args)
	return nil
}
