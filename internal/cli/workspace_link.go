package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// WorkspaceLinkCmd is `workspace link`.
type WorkspaceLinkCmd struct {
	BranchFlag
}

// Run writes the back-pointer into each member repository that has a path.
func (c *WorkspaceLinkCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	if s.Scope != registry.ScopeWorkspace {
		return fault.Usagef("session %s is not a workspace session", s.SessionID)
	}
	root := filepath.Dir(d.Path)
	linked := 0
	for _, name := range s.Repos {
		rs, ok := s.PerRepoState[name]
		if !ok || rs.RepoPath == "" {
			e.warn("%s has no path; set it with orc-state repo set --path=P %s", name, safetext.Operand(name))
			continue
		}
		l, err := gitx.Discover(rs.RepoPath, e.proc.Environ)
		if err != nil {
			return fault.Usagef("%s: %s is not a git repository", name, rs.RepoPath)
		}
		branch := rs.Branch
		if branch == "" {
			branch = s.GitBranch
		}
		link, _ := json.MarshalIndent(selection.Link{Scope: selection.LinkScope, WorkspaceRoot: root,
			WorkspaceName: filepath.Base(root), SessionID: s.SessionID, Branch: branch}, "", "  ")
		parent, err := l.StateParent()
		if err != nil {
			return fault.Usagef("%s: %v", name, err)
		}
		member := &state.Dir{Path: filepath.Join(parent, ".orc"), Git: &l, Clock: e.proc.Stamp}
		err = e.update(member, state.Options{}, func(tx *state.Tx) error {
			tx.WriteState(filepath.Join(s.SessionID, selection.LinkFile), append(link, '\n'))
			return nil
		})
		if err != nil {
			return err
		}
		linked++
		fmt.Fprintf(e.Stdout, "linked %s: %s\n", safetext.Escape(name), safetext.Escape(filepath.Join(member.Path, s.SessionID, selection.LinkFile)))
	}
	if linked == 0 {
		return fault.NotFoundf("no member repository has a path").WithHint("orc-state repo set NAME --path P")
	}
	return e.onChoice(selection.ByID(s.SessionID), func(tx *state.Tx, s *registry.Session) error {
		tx.Touch(s.SessionID, map[string]int{"linked": linked})
		return nil
	})
}
