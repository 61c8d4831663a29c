// Package selection owns which session a verb acts on and the transaction
// that changes it (docs/protocol.md §3).
//
// Selection has one order: the command line (--session S, or a branch or
// sessionId given as --branch or a positional key), else $ORC_SESSION,
// else this worktree's binding (.orc/worktrees.json), else the branch
// checked out here. Where.Choose settles a Choice by it before any lock is
// taken; Choice.Find applies it to a registry, exactly, refusing a
// collision or a conflict with both names. Each variant is one entry point
// here: Where.Session (a lock-free read), Where.Live (the live session a
// hook acts on), Where.Pick (resume's picker fallback), LinkedSessions
// (the workspace sessions this repository is a member of) and
// BranchSession (the session a branch has of its own, which verify asks).
//
// The transaction entry points are here too: Where.On runs a function on
// the chosen session inside one state.Dir.Update (lock, re-read, select),
// Change makes an edit of the entry a saved one, and Save validates,
// bumps updatedAt, regenerates the mirror and journals.
//
// It reads the run through Where (plain values and functions), never the
// CLI's own types; Run builds a Where from the run's plain values for a package
// that decides a verb's whole answer (internal/resume), and Where.Agent
// says who the run's agent is. It imports state, registry, slices,
// binding, gitx and the leaf packages below them (fault, safetext,
// secrets, suggest, atomicfile, input, environ); internal/verify,
// internal/repair, internal/removal, internal/resume, internal/sessionline,
// internal/sessioninit, internal/worktrees, internal/workspace and
// internal/app import it, and it imports none of them.
package selection

import (
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Where is what selection reads of the run. Each field is asked only when
// a rule needs it, so an error comes from the first rule that needs it.
type Where struct {
	Flag   string                     // the verb's --session S; "" when not given
	Getenv func(key string) string    // the run's environment ($ORC_SESSION)
	Dir    func() (*state.Dir, error) // the state dir, resolved once by the caller
	// Binding is this worktree's binding (WorktreeBinding, which the
	// caller may keep); nil and no error when it has none.
	Binding func() (*binding.Binding, error)
}

// Choice is how the session a verb acts on was named. It is settled before
// any lock is taken, since it may ask git whether a branch exists.
type Choice struct {
	ID       string // --session S, $ORC_SESSION or the binding: a sessionId, matched exactly
	Branch   string // the current branch, --branch B or a positional key
	IsBranch bool   // Branch names a git branch (always so for HEAD's)
	// Unsure is why git could not say whether Branch is a branch (no git
	// program, a repository it refuses); nil when it answered.
	Unsure error
	// Via says where an ID nobody typed came from (ViaEnv, ViaBinding,
	// ViaJoin); "" for a flag.
	Via string
	// Own is the branch checked out here when Via is set: a session of its
	// own other than ID is a conflict, refused naming both (for
	// $ORC_SESSION only a live one: the user switched branches in one host
	// session).
	Own string
	// Head: Branch is the one checked out here, named by nobody.
	Head bool
	// StillBound, for a choice via the binding, reads the bindings again
	// and reports whether this worktree is still bound to ID: a session
	// that is gone while its binding is gone too was removed by a
	// concurrent writer (exit 1), not left dangling (exit 3).
	StillBound func() bool
}

// How a session was selected without a name on the command line.
const (
	ViaEnv     = "$ORC_SESSION"
	ViaBinding = "the worktree's binding"
	ViaJoin    = "worktree join" // the session a worktree is being bound to
)

// ByID is the choice of session id by its sessionId, as a verb that has
// found the session already names it for its transaction.
func ByID(id string) Choice { return Choice{ID: id} }

// String is the name the choice was made by.
func (c Choice) String() string {
	if c.ID != "" {
		return c.ID
	}
	return c.Branch
}

// Keys are the sessionIds and gitBranches Find may match: a registry read
// for them alone answers Find as the whole one would.
func (c Choice) Keys() []string {
	if c.ID != "" && c.Own != "" {
		return append([]string{c.ID}, BranchKeys(c.Own)...)
	}
	if c.ID != "" {
		return []string{c.ID}
	}
	return BranchKeys(c.Branch)
}

// BranchKeys are the gitBranch and sessionIds a choice of branch may
// match: the branch, its key, and the key an earlier version gave it
// (registry.Keys).
func BranchKeys(branch string) []string {
	keys := []string{branch}
	for _, id := range registry.Keys(branch) {
		if id != branch {
			keys = append(keys, id)
		}
	}
	return keys
}

// Choose settles the choice for explicit (a --branch value or a positional
// key) and the verb's --session; with neither, $ORC_SESSION, else the
// worktree's binding, else the current branch (docs/protocol.md §3). A name
// that can never be a session (.., knowledge, a reserved name, 201 bytes)
// is a usage error, whichever way it was given.
func (w Where) Choose(explicit string) (Choice, error) {
	if explicit == "" && w.Flag == "" {
		if c, ok, err := w.Implicit(); err != nil || ok {
			return c, err
		}
	}
	return w.Named(explicit)
}

// Implicit is the session selected when the command line names none:
// $ORC_SESSION, else this worktree's binding; ok is false when neither
// applies.
func (w Where) Implicit() (c Choice, ok bool, err error) {
	if v := w.Getenv("ORC_SESSION"); v != "" {
		if err := registry.CheckKey(v); err != nil {
			return Choice{}, false, fault.Usagef("$ORC_SESSION: %v", err).
				WithHint("set ORC_SESSION to a sessionId (orc-state sessions lists them), or unset it")
		}
		return Choice{ID: v, Via: ViaEnv, Own: w.checkedOut()}, true, nil
	}
	b, err := w.Binding()
	if err != nil || b == nil {
		return Choice{}, false, err
	}
	return Choice{ID: b.Session, Via: ViaBinding, Own: w.checkedOut(), StillBound: w.stillBound(b.Session)}, true, nil
}

// Named is Choose without $ORC_SESSION and the binding: the session the
// command line names, else the current branch's.
func (w Where) Named(explicit string) (Choice, error) {
	if w.Flag != "" {
		if explicit != "" {
			return Choice{}, fault.Usagef("name the session once: a branch (%s) or --session, not both", explicit).
				WithHint("drop one of them")
		}
		if err := registry.CheckKey(w.Flag); err != nil {
			return Choice{}, fault.Usagef("--session: %v", err).
				WithHint("orc-state sessions lists the sessionIds")
		}
		return Choice{ID: w.Flag}, nil
	}
	if explicit != "" {
		if _, err := registry.KeyFor(explicit); err != nil {
			return Choice{}, fault.Usagef("%v", err).
				WithHint("orc-state sessions lists the sessions and their branches")
		}
		exists, err := w.branchExists(explicit)
		return Choice{Branch: explicit, IsBranch: exists, Unsure: err}, nil
	}
	b, err := w.headBranch()
	if err != nil {
		return Choice{}, w.withJoinHint(err)
	}
	if _, err := registry.KeyFor(b); err != nil {
		return Choice{}, fault.Usagef("branch %q can have no session: %v", b, err).
			WithHint("rename the branch, or pass --session S for another session")
	}
	return Choice{Branch: b, IsBranch: true, Head: true}, nil
}

// headBranch is the repository's current branch, for a verb given no
// session: exit 1 outside a repository or on a detached HEAD.
func (w Where) headBranch() (string, error) {
	d, err := w.Dir()
	if err != nil {
		return "", err
	}
	if d.Git == nil {
		return "", fault.NotFoundf("no branch given and not inside a git repository").WithHint("pass --branch B or --session S")
	}
	b, detached, err := d.Git.CurrentBranch()
	if err != nil {
		return "", fault.Wrap(fault.Invalid, err, "cannot read HEAD")
	}
	if detached || b == "" {
		return "", fault.NotFoundf("no branch given and HEAD is detached").WithHint("pass --branch B or --session S, or check out a branch")
	}
	return b, nil
}

// checkedOut is the branch checked out here, read by hand; "" when HEAD
// is detached or cannot be read.
func (w Where) checkedOut() string {
	d, err := w.Dir()
	if err != nil || d.Git == nil {
		return ""
	}
	b, detached, err := d.Git.CurrentBranch()
	if err != nil || detached {
		return ""
	}
	return b
}

// branchExists asks the repository whether name is one of its branches
// (gitx.Repo.BranchHead: the ref files where they give git's exact
// answer, git otherwise). Outside a repository nothing is a branch. err
// says why git could not answer (no git program on PATH, a repository git
// refuses to read): the name may or may not be a branch.
func (w Where) branchExists(name string) (bool, error) {
	d, err := w.Dir()
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

// stillBound returns the check of Choice.StillBound for session id: the
// bindings read afresh (after the registry the choice is judged on, under
// the lock in a transaction) still bind this worktree to id. A file that
// cannot be read counts as bound: the dangling case is then reported, as
// before.
func (w Where) stillBound(id string) func() bool {
	return func() bool {
		d, err := w.Dir()
		if err != nil || d.Git == nil {
			return true
		}
		f, err := ReadBindings(d)
		if err != nil {
			return true
		}
		b := f.ByGitDir(d.Git.GitDir)
		return b != nil && b.Names(d.Git.GitDir, d.Git.WorktreeRoot, binding.MadeAt(d.Git.GitDir), gitx.SameDir) && b.Session == id
	}
}

// WorktreeBinding is the binding of the worktree d was resolved in; nil
// when it has none. Only a linked worktree can be bound: in the main
// worktree (and outside a repository) the file is not even read. A
// binding whose git dir names this worktree but whose path is another (an
// earlier worktree of the same name, removed) is not this worktree's.
func WorktreeBinding(d *state.Dir) (*binding.Binding, error) {
	l := d.Git
	if l == nil || !l.Linked || l.WorktreeRoot == "" {
		return nil, nil
	}
	f, err := ReadBindings(d)
	if err != nil {
		return nil, err
	}
	if b := f.ByGitDir(l.GitDir); b != nil && b.Names(l.GitDir, l.WorktreeRoot, binding.MadeAt(l.GitDir), gitx.SameDir) {
		return b, nil
	}
	return nil, nil
}

// ReadBindings reads worktrees.json strictly, without a lock; no file is
// an empty File. An invalid file is exit 3 naming doctor. It is the one reader
// of the bindings, for verify, removal and worktrees too.
func ReadBindings(d *state.Dir) (*binding.File, error) {
	data, err := d.ReadStateFile(binding.FileName)
	if err != nil {
		return nil, err
	}
	return binding.Parse(data)
}
