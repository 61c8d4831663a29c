package worktrees

// worktree add: what is checked before git is asked, git's step, and the
// binding that completes it.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/verify"
)

// NewWorktree is what worktree add asks for: git worktree add's arguments and the
// agent to bind the new worktree as.
type NewWorktree struct {
	Path      string // where the worktree goes, absolute
	Commit    string // what to check out there; "" for git's own choice
	NewBranch string // -b
	Detach    bool
	Agent     string // "" for none (checked by CheckAgent)
}

// Add makes the worktree a.Path with git and binds it to the session
// selected here (the run's --session, else the usual order) as a.Agent,
// returning its row as List shows it. Before git is asked (and before any
// lock) it refuses, in this order: no repository, a folder inside the
// state dir, a branch to be checked out that has a session of its own
// other than this one, a path that exists as anything but an empty
// folder, and an agent bound to another worktree of the session. Git's
// refusal binds nothing. A worktree git made but that could not be bound
// stays: the error is the binding's, and its hint the one command that
// completes the add.
func (r Run) Add(a NewWorktree) (*Row, error) {
	d, _, s, err := r.Where.Session("")
	if err != nil {
		return nil, err
	}
	if d.Git == nil {
		return nil, fault.Usagef("not inside a git repository").WithHint("run orc-state worktree add inside the repository")
	}
	path := a.Path
	if verify.Inside(path, d.Path) {
		// git would make it, and orc-state would then find a repository
		// inside the folder it alone writes
		return nil, fault.Usagef("%s is inside the state dir %s, which only orc-state writes", safetext.Escape(path), safetext.Escape(d.Path)).
			WithHint("name a folder outside %s for the worktree", safetext.Escape(d.Path))
	}
	// What git is about to check out, as far as it can be told beforehand:
	// a branch with a session of its own would make the binding ambiguous.
	if b := a.branchToBe(); b != "" {
		reg, _, err := d.ReadRegistryFor(selection.BranchKeys(b)...)
		if err != nil {
			return nil, err
		}
		if own := reg.ForBranch(b); own != nil && own.SessionID != s.SessionID {
			return nil, fault.Usagef("branch %q has its own session %s; a worktree on it bound to %s would select two sessions", b, own.SessionID, s.SessionID).
				WithHint("check out a new branch (-b BRANCH) or a detached HEAD (--detach) for %s's work", s.SessionID)
		}
	}
	if taken(path) {
		// git would refuse it too, but only after making the branch -b names
		return nil, fault.Usagef("%s already exists and is not an empty folder", path).WithHint("name a new folder for the worktree")
	}
	if f, err := selection.ReadBindings(d); err != nil {
		return nil, err
	} else if h := f.AgentHolder(s.SessionID, a.Agent, ""); h != nil {
		return nil, agentTaken(a.Agent, s.SessionID, h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitx.AddTimeout)
	err = d.Git.AddWorktree(ctx, path, a.NewBranch, a.Commit, a.Detach)
	cancel()
	if err != nil {
		return nil, fault.Wrap(fault.Usage, err, "git worktree add refused").WithHint("orc-state bound nothing; fix what git says and run it again")
	}
	l, linked, err := r.discover(path)
	if err == nil && !linked {
		err = fmt.Errorf("%s is not a linked worktree", path)
	}
	if err == nil {
		err = r.bind(l, s.SessionID, a.Agent)
	}
	if err != nil {
		code, msg, _ := fault.Explain(err)
		join := "cd " + safetext.Quote(path) + " && orc-state worktree join --session=" + safetext.Quote(s.SessionID)
		if a.Agent != "" {
			join += " --agent=" + safetext.Quote(a.Agent)
		}
		return nil, &fault.Error{Code: code, Err: err, Msg: fmt.Sprintf("git created the worktree %s, but it was not bound: %s", path, msg),
			Hint: join + " binds it (git's worktree stays as it is)"}
	}
	return Bound(d, l, r.Now())
}

// discover is the layout of the worktree git just made at path, and
// whether it is a linked one (the only kind bound).
func (r Run) discover(path string) (gitx.Layout, bool, error) {
	l, err := gitx.Discover(path, gitx.CleanEnv(r.Environ))
	return l, err == nil && l.Linked, err
}

// branchToBe is the branch git will check out in the new worktree when it
// can be told from the arguments: -b's, else the commit-ish when it names
// a local branch, else (neither, no --detach) the one git names after the
// folder; "" for a detached HEAD or a commit.
func (a NewWorktree) branchToBe() string {
	switch {
	case a.NewBranch != "":
		return a.NewBranch
	case a.Detach:
		return ""
	case a.Commit != "":
		return a.Commit // only a branch of that name can have a session
	}
	return filepath.Base(a.Path)
}

// taken reports whether path exists as anything but an empty folder.
func taken(path string) bool {
	entries, err := os.ReadDir(path)
	if err == nil {
		return len(entries) > 0
	}
	_, err = os.Lstat(path)
	return err == nil
}
