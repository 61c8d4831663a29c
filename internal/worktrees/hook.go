package worktrees

// What the WorktreeCreate hook decides: the worktree the client asks for,
// made as the client's own git step would make it, then bound.

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/registry"
)

// Requested is the worktree a WorktreeCreate payload asks for.
type Requested struct {
	Name      string // one folder name (CheckName)
	BasePath  string // where it goes; "" or relative: .claude/worktrees at the root of the worktree
	SourceRef string // what to check out; "" for HEAD
	// AgentType and AgentID name the subagent the worktree is for; its
	// agent id (SubagentID) is the one bound, none when AgentID is "".
	AgentType, AgentID string
}

// Created is a worktree Create made, to be bound by Bind.
type Created struct {
	Path    string // the new worktree's root, which the hook prints first
	agent   string
	session *registry.Session // the live session where the client runs; nil for none
	selErr  error             // why that session could not be told
}

// Create makes the worktree q asks for as the client would: git worktree
// add -b worktree-NAME BASE/NAME at SourceRef. The session it will be
// bound to is the live one selected where the client runs, before the new
// worktree exists. A bad name, a run outside a worktree or git's refusal
// creates nothing.
func (r Run) Create(q Requested) (Created, error) {
	if err := CheckName(q.Name); err != nil {
		return Created{}, err
	}
	d, err := r.Where.Dir()
	if err != nil {
		return Created{}, err
	}
	if d.Git == nil || d.Git.WorktreeRoot == "" {
		return Created{}, fmt.Errorf("cwd is not inside a git worktree")
	}
	_, _, s, selErr := r.Where.Live()
	base := q.BasePath
	if base == "" || !filepath.IsAbs(base) {
		base = filepath.Join(d.Git.WorktreeRoot, ".claude", "worktrees")
	}
	c := Created{Path: filepath.Join(filepath.Clean(base), q.Name), agent: SubagentID(q.AgentType, q.AgentID), session: s, selErr: selErr}
	ctx, cancel := context.WithTimeout(context.Background(), gitx.AddTimeout)
	err = d.Git.AddWorktree(ctx, c.Path, "worktree-"+q.Name, q.SourceRef, false)
	cancel()
	if err != nil {
		return Created{}, fmt.Errorf("git worktree add refused: %v", err)
	}
	return c, nil
}

// Bind binds the worktree Create made to the live session with the
// subagent's agent id; nothing when there is no live session. Its error
// says the worktree was created and why it is not bound: the worktree
// stays.
func (r Run) Bind(c Created) error {
	switch {
	case c.selErr != nil:
		return fmt.Errorf("created %s, not bound: %v", c.Path, c.selErr)
	case c.session == nil:
		return nil // no live session: nothing to bind to
	}
	l, linked, err := r.discover(c.Path)
	if err == nil && !linked {
		err = fmt.Errorf("not a linked worktree")
	}
	if err == nil {
		err = r.bind(l, c.session.SessionID, c.agent)
	}
	if err != nil {
		return fmt.Errorf("created %s, not bound to session %s: %v", c.Path, c.session.SessionID, err)
	}
	return nil
}

// CheckName refuses a worktree name that is not one plain folder name:
// the payload's name becomes a path and a branch.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("the payload names no worktree (name, worktree_name)")
	}
	if len(name) > 64 || name[0] == '.' || name[0] == '-' || SubagentID("", name) != "subagent-"+name {
		return fmt.Errorf("worktree name %q is not a folder name of [A-Za-z0-9._-] (at most 64, not starting with . or -)", name)
	}
	return nil
}
