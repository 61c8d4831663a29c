package cli

import (
	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/binding"
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
	id       string // --session S, $ORC_SESSION or the binding: a sessionId, matched exactly
	branch   string // the current branch, --branch B or a positional key
	isBranch bool   // branch names a git branch (always so for HEAD's)
	// unsure is why git could not say whether branch is a branch (no git
	// program, a repository it refuses); nil when it answered.
	unsure error
	// via says where an id nobody typed came from (viaEnv, viaBinding);
	// "" for a flag.
	via string
	// own is the branch checked out here when via is set: a session of its
	// own other than id is a conflict, refused naming both (for $ORC_SESSION
	// only a live one: the user switched branches in one host session).
	own string
	// head: branch is the one checked out here, named by nobody.
	head bool
	// stillBound, for a choice via the binding, reads the bindings again
	// and reports whether this worktree is still bound to id: a session
	// that is gone while its binding is gone too was removed by a
	// concurrent writer (exit 1), not left dangling (exit 3).
	stillBound func() bool
}

// How a session was selected without a name on the command line.
const (
	viaEnv     = "$ORC_SESSION"
	viaBinding = "the worktree's binding"
	viaJoin    = "worktree join" // the session a worktree is being bound to
)

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
	if c.id != "" && c.own != "" {
		return append([]string{c.id}, branchKeys(c.own)...)
	}
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
// key) and the verb's --session; with neither, $ORC_SESSION, else the
// worktree's binding, else the current branch (docs/protocol.md §3). A name
// that can never be a session (.., knowledge, a reserved name, 201 bytes)
// is a usage error, whichever way it was given.
func (e *Env) choose(explicit string) (choice, error) {
	if explicit == "" && e.sessionFlag == "" {
		if c, ok, err := e.implicitChoice(); err != nil || ok {
			return c, err
		}
	}
	return e.chooseNamed(explicit)
}

// implicitChoice is the session selected when the command line names
// none: $ORC_SESSION, else this worktree's binding; ok is false when
// neither applies.
func (e *Env) implicitChoice() (c choice, ok bool, err error) {
	if v := e.getenv("ORC_SESSION"); v != "" {
		if err := registry.CheckKey(v); err != nil {
			return choice{}, false, fault.Usagef("$ORC_SESSION: %v", err).
				WithHint("set ORC_SESSION to a sessionId (orc-state sessions lists them), or unset it")
		}
		return choice{id: v, via: viaEnv, own: e.checkedOut()}, true, nil
	}
	b, err := e.worktreeBinding()
	if err != nil || b == nil {
		return choice{}, false, err
	}
	return choice{id: b.Session, via: viaBinding, own: e.checkedOut(), stillBound: e.stillBound(b.Session)}, true, nil
}

// stillBound returns the check of choice.stillBound for session id: the
// bindings read afresh (after the registry the choice is judged on, under
// the lock in a transaction) still bind this worktree to id. A file that
// cannot be read counts as bound: the dangling case is then reported, as
// before.
func (e *Env) stillBound(id string) func() bool {
	return func() bool {
		d, err := e.Dir()
		if err != nil || d.Git == nil {
			return true
		}
		f, err := readBindings(d)
		if err != nil {
			return true
		}
		b := f.ByGitDir(d.Git.GitDir)
		return b != nil && b.Names(d.Git.GitDir, d.Git.WorktreeRoot, binding.MadeAt(d.Git.GitDir), gitx.SameDir) && b.Session == id
	}
}

// checkedOut is the branch checked out here, read by hand; "" when HEAD
// is detached or cannot be read.
func (e *Env) checkedOut() string {
	d, err := e.Dir()
	if err != nil || d.Git == nil {
		return ""
	}
	b, detached, err := d.Git.CurrentBranch()
	if err != nil || detached {
		return ""
	}
	return b
}

// chooseNamed is choose without $ORC_SESSION and the binding: the
// session the command line names, else the current branch's.
func (e *Env) chooseNamed(explicit string) (choice, error) {
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
		return choice{}, e.withJoinHint(err)
	}
	if _, err := registry.KeyFor(b); err != nil {
		return choice{}, fault.Usagef("branch %q can have no session: %v", b, err).
			WithHint("rename the branch, or pass --session S for another session")
	}
	return choice{branch: b, isBranch: true, head: true}, nil
}

// gitBranchExists asks the repository whether name is one of its
// branches (gitx.Repo.BranchHead: the ref files where they give git's
// exact answer, git otherwise). Outside a repository nothing is a branch.
// err says why git could not answer (no git program on PATH, a repository
// git refuses to read): the name may or may not be a branch.
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
		s := reg.Exact(c.id)
		if c.own != "" {
			if o := ownSession(reg, c.own); o != nil && o != s && (c.via != viaEnv || isLive(o)) {
				return nil, c.conflict(o)
			}
		}
		switch {
		case s != nil:
			return s, nil
		case c.via == viaEnv:
			return nil, fault.NotFoundf("no session %q (the value of $ORC_SESSION)", c.id).
				WithHint("set ORC_SESSION to one of the sessions orc-state sessions lists, or unset it")
		case c.via == viaBinding && c.stillBound != nil && !c.stillBound():
			return nil, fault.NotFoundf("no session %q: it was removed while this command ran, and this worktree's binding with it", c.id).
				WithHint("run orc-state sessions to list the sessions; orc-state worktree join --session=S binds this worktree to another")
		case c.via == viaBinding:
			return nil, fault.Invalidf("this worktree is bound to session %q, which does not exist", c.id).
				WithHint("orc-state worktree leave unbinds this worktree; orc-state doctor checks the bindings")
		}
		return nil, fault.NotFoundf("no session %q", c.id).
			WithHint("run orc-state sessions to list them")
	}
	if s := ownSession(reg, c.branch); s != nil {
		return s, nil
	}
	if !c.isBranch {
		if s := reg.Exact(c.branch); s != nil && c.unsure == nil {
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

// conflict refuses an implicit selection that disagrees with the
// session of the branch checked out here: nothing says which one is meant.
func (c choice) conflict(own *registry.Session) error {
	if c.via == viaJoin {
		return fault.Usagef("branch %q checked out in this worktree has its own session %s; bound to %s it would select two sessions", c.own, own.SessionID, c.id).
			WithHint("work on %s there without a binding, or check out another branch (or git switch --detach) first", own.SessionID)
	}
	if c.via == viaEnv {
		return fault.Usagef("$ORC_SESSION selects session %s, but branch %q checked out here has its own live session %s", c.id, c.own, own.SessionID).
			WithHint("name one: --session=%s (this branch's) or --session=%s; or unset ORC_SESSION", own.SessionID, c.id)
	}
	return fault.Usagef("this worktree is bound to session %s, but its branch %q has its own session %s", c.id, c.own, own.SessionID).
		WithHint("name one: --session=%s or --session=%s; orc-state worktree leave unbinds this worktree", c.id, own.SessionID)
}

// isLive reports whether a session is in progress or paused.
func isLive(s *registry.Session) bool { return s.Status == "in_progress" || s.Status == "paused" }

// collision returns the session that branch's sessionId belongs to when
// that session is another branch's.
func collision(reg *registry.Registry, branch string) *registry.Session {
	id, err := registry.KeyFor(branch)
	if err != nil {
		return nil
	}
	if s := reg.Exact(id); s != nil && s.GitBranch != branch {
		return s
	}
	return nil
}

func collisionError(branch string, s *registry.Session) error {
	return fault.Usagef("branch %q has no session; session %s is branch %q's, not this one's", branch, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session=%s; a session for %s needs a branch name that does not map to %s", s.GitBranch, safetext.Quote(s.SessionID), branch, s.SessionID)
}

// unsureError refuses to take the name of a branch git could not look up
// for the sessionId of another branch's session: it may be a branch of its
// own (feat-x beside feat/x), and acting on feat/x's session would then be
// acting on the wrong one.
func unsureError(c choice, s *registry.Session) error {
	return fault.Usagef("git cannot say whether %q is a branch (%v); session %s is branch %q's, not necessarily this one's", c.branch, c.unsure, s.SessionID, s.GitBranch).
		WithHint("to act on %s's session pass --session=%s; to use %s as a branch, make git answer here (git status shows why it cannot)", s.GitBranch, s.SessionID, c.branch)
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
