package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/gitx"
)

// HookWorktreeCreateCmd is `hook worktree-create`.
type HookWorktreeCreateCmd struct{}

// Help is the detail of hook worktree-create --help: the payload fields read.
func (c *HookWorktreeCreateCmd) Help() string {
	return hookHelp("WorktreeCreate", "cwd", "agent_id", "agent_type", "name", "worktree_name", "base_path", "source_ref") + `
A WorktreeCreate hook replaces the client's own git step. Like the client,
it runs git worktree add -b worktree-NAME BASE/NAME at source_ref (default
HEAD), BASE being base_path or .claude/worktrees at the root of cwd's
worktree, and prints the new worktree's path on stdout. It then binds the
worktree to the live session selected at cwd (with the agent id
agent_type-agent_id when the payload has agent_id); when that fails the
worktree stays, the path is printed and stderr says why in one line. A
name that is not one folder name of [A-Za-z0-9._-], or git's refusal,
creates nothing, prints nothing on stdout and one line on stderr. Exit 0.`
}

// Run makes and binds the worktree the client asks for.
func (c *HookWorktreeCreateCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	e.actor = "hook:WorktreeCreate"
	name := p.Name
	if name == "" {
		name = p.WorktreeName
	}
	if err := checkWorktreeName(name); err != nil {
		return e.problem(err)
	}
	d, err := e.Dir()
	if err != nil {
		return e.problem(err)
	}
	if d.Git == nil || d.Git.WorktreeRoot == "" {
		return e.problem(fmt.Errorf("cwd is not inside a git worktree"))
	}
	// The session is the one selected where the client runs, before the
	// new worktree exists.
	_, _, s, selErr := e.liveSession()
	base := p.BasePath
	if base == "" || !filepath.IsAbs(base) {
		base = filepath.Join(d.Git.WorktreeRoot, ".claude", "worktrees")
	}
	path := filepath.Join(filepath.Clean(base), name)
	ctx, cancel := context.WithTimeout(context.Background(), gitx.AddTimeout)
	err = d.Git.AddWorktree(ctx, path, "worktree-"+name, p.SourceRef, false)
	cancel()
	if err != nil {
		return e.problem(fmt.Errorf("git worktree add refused: %v", err))
	}
	// The path first: the client's worktree never waits on the binding.
	if _, err := fmt.Fprintln(e.Stdout, path); err != nil {
		return nil
	}
	switch {
	case selErr != nil:
		return e.problem(fmt.Errorf("created %s, not bound: %v", path, selErr))
	case s == nil:
		return nil // no live session: nothing to bind to
	}
	l, err := gitx.Discover(path, gitx.CleanEnv(e.proc.Environ))
	if err == nil && !l.Linked {
		err = fmt.Errorf("not a linked worktree")
	}
	if err == nil {
		err = e.bindWorktree(l, s.SessionID, subagentID(p.AgentType, p.AgentID))
	}
	if err != nil {
		return e.problem(fmt.Errorf("created %s, not bound to session %s: %v", path, s.SessionID, err))
	}
	return nil
}

// checkWorktreeName refuses a worktree name that is not one plain folder
// name: the payload's name becomes a path and a branch.
func checkWorktreeName(name string) error {
	if name == "" {
		return fmt.Errorf("the payload names no worktree (name, worktree_name)")
	}
	if len(name) > 64 || name[0] == '.' || name[0] == '-' || subagentID("", name) != "subagent-"+name {
		return fmt.Errorf("worktree name %q is not a folder name of [A-Za-z0-9._-] (at most 64, not starting with . or -)", name)
	}
	return nil
}
