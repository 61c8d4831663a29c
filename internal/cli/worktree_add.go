package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/slices"
)

// WorktreeAddCmd is `worktree add`.
type WorktreeAddCmd struct {
	Path      string `arg:"" help:"Where the new worktree goes (as for git worktree add)."`
	Commit    string `arg:"" optional:"" help:"What to check out there (git's commit-ish); default: git's own choice." placeholder:"COMMIT"`
	NewBranch string `name:"new-branch" short:"b" help:"Create this branch for the new worktree (git worktree add -b)." placeholder:"BRANCH"`
	Detach    bool   `help:"Check out a detached HEAD (git worktree add --detach)."`
	Session   string `help:"The session to bind it to, by sessionId; default: the session selected here." placeholder:"S"`
	AgentFlag
}

// Run asks git for the new worktree (before any lock), then binds it to
// the session under the lock and prints its row as worktree list does.
func (c *WorktreeAddCmd) Run(e *Env) error {
	if err := checkWorktreeAgent(c.Agent); err != nil {
		return err
	}
	if err := textin.SingleLine("PATH", c.Path); err != nil {
		return fault.Usagef("%v", err).WithHint("name the worktree's folder on one line")
	}
	e.sessionFlag = c.Session
	d, _, s, err := e.Session("") // --session, else the session selected here
	if err != nil {
		return err
	}
	if d.Git == nil {
		return fault.Usagef("not inside a git repository").WithHint("run orc-state worktree add inside the repository")
	}
	path := e.abs(c.Path)
	if verify.Inside(path, d.Path) {
		// git would make it, and orc-state would then find a repository
		// inside the folder it alone writes
		return fault.Usagef("%s is inside the state dir %s, which only orc-state writes", safetext.Escape(path), safetext.Escape(d.Path)).
			WithHint("name a folder outside %s for the worktree", safetext.Escape(d.Path))
	}
	// What git is about to check out, as far as it can be told beforehand:
	// a branch with a session of its own would make the binding ambiguous.
	if b := c.branchToBe(path); b != "" {
		reg, _, err := d.ReadRegistryFor(selection.BranchKeys(b)...)
		if err != nil {
			return err
		}
		if own := reg.ForBranch(b); own != nil && own.SessionID != s.SessionID {
			return fault.Usagef("branch %q has its own session %s; a worktree on it bound to %s would select two sessions", b, own.SessionID, s.SessionID).
				WithHint("check out a new branch (-b BRANCH) or a detached HEAD (--detach) for %s's work", s.SessionID)
		}
	}
	if taken(path) {
		// git would refuse it too, but only after making the branch -b names
		return fault.Usagef("%s already exists and is not an empty folder", path).WithHint("name a new folder for the worktree")
	}
	if f, err := readBindings(d); err != nil {
		return err
	} else if h := f.AgentHolder(s.SessionID, c.Agent, ""); h != nil {
		return agentTaken(c.Agent, s.SessionID, h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitx.AddTimeout)
	err = d.Git.AddWorktree(ctx, path, c.NewBranch, c.Commit, c.Detach)
	cancel()
	if err != nil {
		return fault.Wrap(fault.Usage, err, "git worktree add refused").WithHint("orc-state bound nothing; fix what git says and run it again")
	}
	l, err := gitx.Discover(path, gitx.CleanEnv(e.proc.Environ))
	if err == nil && !l.Linked {
		err = fmt.Errorf("%s is not a linked worktree", path)
	}
	if err == nil {
		err = e.bindWorktree(l, s.SessionID, c.Agent)
	}
	if err != nil {
		// The worktree stays (git made it; removing it could lose what
		// another process put there meanwhile): the exit is the binding's
		// failure, and the hint is the one command that completes the add.
		code, msg, _ := fault.Explain(err)
		join := "cd " + safetext.Quote(path) + " && orc-state worktree join --session=" + safetext.Quote(s.SessionID)
		if c.Agent != "" {
			join += " --agent=" + safetext.Quote(c.Agent)
		}
		return &fault.Error{Code: code, Err: err, Msg: fmt.Sprintf("git created the worktree %s, but it was not bound: %s", path, msg),
			Hint: join + " binds it (git's worktree stays as it is)"}
	}
	return e.printBound(l)
}

// branchToBe is the branch git will check out in the new worktree when it
// can be told from the arguments: -b's, else the commit-ish when it names
// a local branch, else (neither, no --detach) the one git names after the
// folder; "" for a detached HEAD or a commit.
func (c *WorktreeAddCmd) branchToBe(path string) string {
	switch {
	case c.NewBranch != "":
		return c.NewBranch
	case c.Detach:
		return ""
	case c.Commit != "":
		return c.Commit // only a branch of that name can have a session
	}
	return filepath.Base(path)
}

// checkWorktreeAgent refuses an --agent a binding cannot record (the
// rules of slice claim's --agent).
func checkWorktreeAgent(agent string) error {
	if agent == "" {
		return nil
	}
	if err := slices.CheckAgent(agent); err != nil {
		return err
	}
	if err := input.RefuseSecrets("--agent", []byte(agent)); err != nil {
		return err
	}
	return checkNewAgent(agent)
}

// checkNewAgent refuses an --agent that new data would record (a claim,
// a binding) outside the safe alphabet of slice ids (docs/protocol.md
// §4, §7): such an id is printed and pasted as itself and never reads as
// a flag. "" (the default agent) passes.
func checkNewAgent(agent string) error {
	if agent == "" {
		return nil
	}
	if p := safetext.NameProblem(agent, safetext.MaxName); p != "" {
		return fault.Usagef("--agent %s %s; a new agent id is %s, at most %d characters", safetext.Quote(agent), p, safetext.Alphabet, safetext.MaxName).
			WithHint("pass --agent=NAME with such a name")
	}
	return nil
}

// agentTaken refuses a second worktree for one agent id in a session.
func agentTaken(agent, session string, h *binding.Binding) error {
	return fault.Usagef("agent %s is already bound in session %s, to the worktree %s", safetext.Escape(agent), session, safetext.Escape(h.Path)).
		WithHint("pass another --agent: two worktrees with one agent id would hold each other's claims")
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
