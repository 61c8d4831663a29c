package selection

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// Find returns the chosen session from reg. A branch selects only the
// session whose gitBranch is exactly that branch; a name that git says is
// no branch may also be a sessionId. A session that matches only once the
// branch is sanitized (branch feat-x, session of feat/x) is another
// branch's: a collision, refused with both names, never acted on; so is a
// sessionId match while git cannot say whether the name is a branch
// (docs/protocol.md §3: selection is exact with or without git).
func (c Choice) Find(reg *registry.Registry) (*registry.Session, error) {
	if c.ID != "" {
		s := reg.Exact(c.ID)
		if c.Own != "" {
			if o := reg.ForBranch(c.Own); o != nil && o != s && (c.Via != ViaEnv || isLive(o)) {
				return nil, c.conflict(o)
			}
		}
		switch {
		case s != nil:
			return s, nil
		case c.Via == ViaEnv:
			return nil, fault.NotFoundf("no session %q (the value of $ORC_SESSION)", c.ID).
				WithHint("set ORC_SESSION to one of the sessions orc-state sessions lists, or unset it")
		case c.Via == ViaBinding && c.StillBound != nil && !c.StillBound():
			return nil, fault.NotFoundf("no session %q: it was removed while this command ran, and this worktree's binding with it", c.ID).
				WithHint("run orc-state sessions to list the sessions; orc-state worktree join --session=S binds this worktree to another")
		case c.Via == ViaBinding:
			return nil, fault.Invalidf("this worktree is bound to session %q, which does not exist", c.ID).
				WithHint("orc-state worktree leave unbinds this worktree; orc-state doctor checks the bindings")
		}
		return nil, fault.NotFoundf("no session %q", c.ID).
			WithHint("run orc-state sessions to list them")
	}
	if s := reg.ForBranch(c.Branch); s != nil {
		return s, nil
	}
	if !c.IsBranch {
		if s := reg.Exact(c.Branch); s != nil && c.Unsure == nil {
			return s, nil // the sessionId of a branch that is gone (or never existed here)
		} else if s != nil {
			return nil, c.unsureError(s)
		}
	}
	if s := Collision(reg, c.Branch); s != nil {
		return nil, collisionError(c.Branch, s)
	}
	return nil, notFound(c.Branch)
}

// conflict refuses an implicit selection that disagrees with the
// session of the branch checked out here: nothing says which one is meant.
func (c Choice) conflict(own *registry.Session) error {
	if c.Via == ViaJoin {
		return fault.Usagef("branch %q checked out in this worktree has its own session %s; bound to %s it would select two sessions", c.Own, own.SessionID, c.ID).
			WithHint("work on %s there without a binding, or check out another branch (or git switch --detach) first", own.SessionID)
	}
	if c.Via == ViaEnv {
		return fault.Usagef("$ORC_SESSION selects session %s, but branch %q checked out here has its own live session %s", c.ID, c.Own, own.SessionID).
			WithHint("name one: --session=%s (this branch's) or --session=%s; or unset ORC_SESSION", own.SessionID, c.ID)
	}
	return fault.Usagef("this worktree is bound to session %s, but its branch %q has its own session %s", c.ID, c.Own, own.SessionID).
		WithHint("name one: --session=%s or --session=%s; orc-state worktree leave unbinds this worktree", c.ID, own.SessionID)
}

// unsureError refuses to take the name of a branch git could not look up
// for the sessionId of another branch's session: it may be a branch of its
// own (feat-x beside feat/x), and acting on feat/x's session would then be
// acting on the wrong one.
func (c Choice) unsureError(s *registry.Session) error {
	return fault.Usagef("git cannot say whether %q is a branch (%v); session %s is branch %q's, not necessarily this one's", c.Branch, c.Unsure, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session=%s; to use %s as a branch, make git answer here (git status shows why it cannot)", s.GitBranch, s.SessionID, c.Branch)
}

// isLive reports whether a session is in progress or paused.
func isLive(s *registry.Session) bool { return s.Status == "in_progress" || s.Status == "paused" }

// LiveIDs are the sessionIds of the sessions in progress or paused, in
// registry order.
func LiveIDs(reg *registry.Registry) []string {
	var ids []string
	for i := range reg.Sessions {
		if isLive(&reg.Sessions[i]) {
			ids = append(ids, reg.Sessions[i].SessionID)
		}
	}
	return ids
}

// Collision returns the session that branch's sessionId belongs to when
// that session is another branch's.
func Collision(reg *registry.Registry, branch string) *registry.Session {
	id, err := registry.KeyFor(branch)
	if err != nil {
		return nil
	}
	if s := reg.Exact(id); s != nil && s.GitBranch != branch {
		return s
	}
	return nil
}

// collisionError refuses to act on s, another branch's session, for
// branch, whose sessionId s holds.
func collisionError(branch string, s *registry.Session) error {
	return fault.Usagef("branch %q has no session; session %s is branch %q's, not this one's", branch, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session=%s; a session for %s needs a branch name that does not map to %s", s.GitBranch, safetext.Quote(s.SessionID), branch, s.SessionID)
}

// notFound is the exit-1 error for a missing session.
func notFound(key string) error {
	return fault.NotFoundf("no session for %q", key).WithHint("run orc-state sessions to list them, or orc-state init to register one")
}

// FindKey returns the session a positional key names in reg (a branch, or
// a sessionId when no git branch has that name), by the rules of Find.
func (w Where) FindKey(reg *registry.Registry, key string) (*registry.Session, error) {
	c, err := w.Choose(key)
	if err != nil {
		return nil, err
	}
	return c.Find(reg)
}
