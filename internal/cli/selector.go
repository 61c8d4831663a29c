package cli

import (
	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// BranchFlag selects the session a verb acts on (docs/protocol.md §3): --branch B
// (a branch, or the sessionId of a branch that is gone) or --session S (a
// sessionId, matched exactly); neither means the current branch. Every verb
// that acts on a session embeds it. A verb passes its --branch (or its
// positional key) to the session lookups; --session reaches them through
// Env, set once after parsing (selectFlags).
type BranchFlag struct {
	Branch  string `help:"Branch whose session to use (or a sessionId when no git branch has that name); default: the current branch." placeholder:"B" predictor:"branch"`
	Session string `help:"The session to use, by sessionId (exactly)." placeholder:"S" predictor:"session"`
}

// selectFlags keeps the selected verb's --session for the session lookups.
func (e *Env) selectFlags(kctx *kong.Context) {
	n := kctx.Selected()
	if n == nil || !n.Target.IsValid() {
		return
	}
	if f := n.Target.FieldByName("BranchFlag"); f.IsValid() {
		e.sessionFlag = f.Interface().(BranchFlag).Session
	}
}

// choice is how the session a verb acts on was named. It is settled before
// any lock is taken, since it may ask git whether a branch exists.
type choice struct {
	id       string // --session S: a sessionId, matched exactly
	branch   string // the current branch, --branch B or a positional key
	isBranch bool   // branch names a git branch (always so for HEAD's)
	// unsure is why git could not say whether branch is a branch (no git
	// program, a repository it refuses); nil when it answered.
	unsure error
}

// String is the name the choice was made by.
func (c choice) String() string {
	if c.id != "" {
		return c.id
	}
	return c.branch
}

// keys are the sessionIds and gitBranches find may match: a registry read
// for them alone answers find as the whole one would.
func (c choice) keys() []string {
	if c.id != "" {
		return []string{c.id}
	}
	return branchKeys(c.branch)
}

// branchKeys are the gitBranch and sessionIds a choice of branch may
// match: the branch, its key, and the key an earlier version gave it
// (registry.Keys).
func branchKeys(branch string) []string {
	keys := []string{branch}
	for _, id := range registry.Keys(branch) {
		if id != branch {
			keys = append(keys, id)
		}
	}
	return keys
}

// choose settles the choice for explicit (a --branch value or a positional
// key; "" for the current branch) and the verb's --session. A name that can
// never be a session (.., knowledge, a reserved name, 201 bytes) is a usage
// error, whichever way it was given.
func (e *Env) choose(explicit string) (choice, error) {
	if e.sessionFlag != "" {
		if explicit != "" {
			return choice{}, fault.Usagef("name the session once: a branch (%s) or --session, not both", explicit).
				WithHint("drop one of them")
		}
		if err := registry.CheckKey(e.sessionFlag); err != nil {
			return choice{}, fault.Usagef("--session: %v", err).
				WithHint("orc-state sessions lists the sessionIds")
		}
		return choice{id: e.sessionFlag}, nil
	}
	if explicit != "" {
		if _, err := registry.KeyFor(explicit); err != nil {
			return choice{}, fault.Usagef("%v", err).
				WithHint("orc-state sessions lists the sessions and their branches")
		}
		exists, err := e.gitBranchExists(explicit)
		return choice{branch: explicit, isBranch: exists, unsure: err}, nil
	}
	b, err := e.headBranch()
	if err != nil {
		return choice{}, err
	}
	if _, err := registry.KeyFor(b); err != nil {
		return choice{}, fault.Usagef("branch %q can have no session: %v", b, err).
			WithHint("rename the branch, or pass --session S for another session")
	}
	return choice{branch: b, isBranch: true}, nil
}

// gitBranchExists asks the repository whether name is one of its
// branches. Outside a repository nothing is a branch. err says why git
// could not answer (no git program on PATH, a repository git refuses to
// read): the name may or may not be a branch.
func (e *Env) gitBranchExists(name string) (bool, error) {
	d, err := e.Dir()
	if err != nil || d.Git == nil {
		return false, nil
	}
	r, err := gitx.Open(d.Git.WorktreeRoot, d.Git.Env)
	if err != nil {
		return false, err
	}
	defer r.Close()
	_, ok, err := r.BranchHead(name)
	return ok, err
}

// find returns the chosen session from reg. A branch selects only the
// session whose gitBranch is exactly that branch; a name that git says is
// no branch may also be a sessionId. A session that matches only once the
// branch is sanitized (branch feat-x, session of feat/x) is another
// branch's: a collision, refused with both names, never acted on; so is a
// sessionId match while git cannot say whether the name is a branch
// (docs/protocol.md §3: selection is exact with or without git).
func (c choice) find(reg *registry.Registry) (*registry.Session, error) {
	if c.id != "" {
		if s := findExact(reg, c.id); s != nil {
			return s, nil
		}
		return nil, fault.NotFoundf("no session %q", c.id).
			WithHint("run orc-state sessions to list them")
	}
	if s := ownSession(reg, c.branch); s != nil {
		return s, nil
	}
	if !c.isBranch {
		if s := findExact(reg, c.branch); s != nil && c.unsure == nil {
			return s, nil // the sessionId of a branch that is gone (or never existed here)
		} else if s != nil {
			return nil, unsureError(c, s)
		}
	}
	if s := collision(reg, c.branch); s != nil {
		return nil, collisionError(c.branch, s)
	}
	return nil, notFound(c.branch)
}

// collision returns the session that branch's sessionId belongs to when
// that session is another branch's.
func collision(reg *registry.Registry, branch string) *registry.Session {
	id, err := registry.KeyFor(branch)
	if err != nil {
		return nil
	}
	if s := findExact(reg, id); s != nil && s.GitBranch != branch {
		return s
	}
	return nil
}

func collisionError(branch string, s *registry.Session) error {
	return fault.Usagef("branch %q has no session; session %s is branch %q's, not this one's", branch, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session %s; a session for %s needs a branch name that does not map to %s", s.GitBranch, safetext.Quote(s.SessionID), branch, s.SessionID)
}

// unsureError refuses to take the name of a branch git could not look up
// for the sessionId of another branch's session: it may be a branch of its
// own (feat-x beside feat/x), and acting on feat/x's session would then be
// acting on the wrong one.
func unsureError(c choice, s *registry.Session) error {
	return fault.Usagef("git cannot say whether %q is a branch (%v); session %s is branch %q's, not necessarily this one's", c.branch, c.unsure, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session %s; to use %s as a branch, make git answer here (git status shows why it cannot)", s.GitBranch, s.SessionID, c.branch)
}

// notFound is the exit-1 error for a missing session.
func notFound(key string) error {
	return fault.NotFoundf("no session for %q", key).WithHint("run orc-state sessions to list them, or orc-state init to register one")
}

// findKey returns the session a positional key names (a branch, or a
// sessionId when no git branch has that name), by the rules of find.
func (e *Env) findKey(reg *registry.Registry, key string) (*registry.Session, error) {
	c, err := e.choose(key)
	if err != nil {
		return nil, err
	}
	return c.find(reg)
}

// ownSession is the session whose gitBranch is branch, or nil.
func ownSession(reg *registry.Registry, branch string) *registry.Session {
	for i := range reg.Sessions {
		if reg.Sessions[i].GitBranch == branch {
			return &reg.Sessions[i]
		}
	}
	return nil
}
