package cli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// LinkFile is the back-pointer a workspace writes into each member
// repository's state dir, at .orc/<sessionId>/LinkFile (one documented
// location, beside the session's files/ folder).
const LinkFile = "workspace-link.json"

// workspaceLink is the content of LinkFile.
type workspaceLink struct {
	Scope         string `json:"scope"` // always workspace-member
	WorkspaceRoot string `json:"workspaceRoot"`
	WorkspaceName string `json:"workspaceName"`
	SessionID     string `json:"sessionId"`
	Branch        string `json:"branch"`
}

// Run updates one member repository's entry in perRepoState.
func (c *RepoSetCmd) Run(e *Env) error {
	if c.OldBranch != "" {
		return fault.Usagef("repo set takes no --branch: the member's branch is --repo-branch, and the workspace session is --session S (default: the current branch's)").
			WithHint("orc-state repo set %s --repo-branch %s", c.Name, c.OldBranch)
	}
	e.sessionFlag = c.Session
	for name, v := range map[string]string{"NAME": c.Name, "--path": c.Path, "--repo-branch": c.RepoBranch, "--worktree": c.Worktree, "--pr": c.PR} {
		if err := registry.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	if c.PR != "" {
		if u, err := url.Parse(c.PR); err != nil || u.Scheme == "" || u.Host == "" {
			return fault.Usagef("--pr %q is not an absolute URL", c.PR)
		}
	}
	if c.Slice != nil && *c.Slice < 0 {
		return fault.Usagef("--slice %d is negative", *c.Slice)
	}
	path := c.Path
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return fault.Usagef("--path %q: %v", path, err)
		}
		path = abs
	}
	return e.Mutate("", c, func(_ *state.Tx, s *registry.Session) error {
		if s.Scope != "workspace" {
			return fault.Usagef("session %s is not a workspace session", s.SessionID).WithHint("orc-state init --scope workspace --repos a,b")
		}
		if !contains(s.Repos, c.Name) {
			return fault.Usagef("%q is not a member repository of %s (repos: %v)", c.Name, s.SessionID, s.Repos).
				WithHint("add it with orc-state init --scope workspace --repos ...")
		}
		if s.PerRepoState == nil {
			s.PerRepoState = map[string]registry.RepoState{}
		}
		rs := s.PerRepoState[c.Name]
		if path != "" {
			rs.RepoPath = path
		}
		if c.RepoBranch != "" {
			rs.Branch = c.RepoBranch
		}
		if c.Worktree != "" {
			rs.Worktree = c.Worktree
		}
		if c.Slice != nil {
			rs.CurrentSlice = c.Slice
		}
		if c.PR != "" {
			rs.PRURL = registry.Str(c.PR)
		}
		s.PerRepoState[c.Name] = rs
		return nil
	})
}

// Run writes the back-pointer into each member repository that has a path.
func (c *WorkspaceLinkCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	if s.Scope != "workspace" {
		return fault.Usagef("session %s is not a workspace session", s.SessionID)
	}
	root := filepath.Dir(d.Path)
	linked := 0
	for _, name := range s.Repos {
		rs, ok := s.PerRepoState[name]
		if !ok || rs.RepoPath == "" {
			e.warn("%s has no path; set it with orc-state repo set %s --path P", name, name)
			continue
		}
		l, err := gitx.Discover(rs.RepoPath)
		if err != nil {
			return fault.Usagef("%s: %s is not a git repository", name, rs.RepoPath)
		}
		branch := rs.Branch
		if branch == "" {
			branch = s.GitBranch
		}
		link, _ := json.MarshalIndent(workspaceLink{Scope: "workspace-member", WorkspaceRoot: root,
			WorkspaceName: filepath.Base(root), SessionID: s.SessionID, Branch: branch}, "", "  ")
		member := &state.Dir{Path: filepath.Join(l.MainRoot(), ".orc"), Git: &l}
		err = e.update(member, state.Options{}, func(tx *state.Tx) error {
			tx.WriteState(filepath.Join(s.SessionID, LinkFile), append(link, '\n'))
			return nil
		})
		if err != nil {
			return err
		}
		linked++
		fmt.Fprintf(e.Stdout, "linked %s: %s\n", name, filepath.Join(member.Path, s.SessionID, LinkFile))
	}
	if linked == 0 {
		return fault.NotFoundf("no member repository has a path").WithHint("orc-state repo set NAME --path P")
	}
	return e.onChoice(choice{id: s.SessionID}, func(tx *state.Tx, s *registry.Session) error {
		tx.Touch(s.SessionID, map[string]int{"linked": linked})
		return nil
	})
}

// linked is a workspace session this repository is a member of, found
// through a workspace-link.json in its state dir.
type linked struct {
	d      *state.Dir
	reg    *registry.Registry
	s      *registry.Session
	branch string // the member's branch the link names
}

// linkedSessions follows every workspace-link.json of this repository's
// state dir to its workspace session (links whose workspace or session is
// gone are skipped).
func linkedSessions(d *state.Dir) []linked {
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return nil
	}
	var out []linked
	for _, en := range entries {
		data, err := readFileSmall(filepath.Join(d.Path, en.Name(), LinkFile))
		if err != nil {
			continue
		}
		var link workspaceLink
		if json.Unmarshal(data, &link) != nil || link.Scope != "workspace-member" {
			continue
		}
		ws := &state.Dir{Path: filepath.Join(link.WorkspaceRoot, ".orc"), Git: d.Git}
		reg, _, err := ws.ReadRegistry()
		if err != nil {
			continue
		}
		if s := findExact(reg, link.SessionID); s != nil {
			out = append(out, linked{d: ws, reg: reg, s: s, branch: link.Branch})
		}
	}
	return out
}

// linkedSession is the workspace session linked to key: the member's
// branch the link names, or the workspace's sessionId. ok false when none.
func linkedSession(d *state.Dir, key string) (*state.Dir, *registry.Registry, *registry.Session, bool) {
	for _, l := range linkedSessions(d) {
		if l.branch == key || l.s.SessionID == key {
			return l.d, l.reg, l.s, true
		}
	}
	return nil, nil, nil, false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// isLinkFolder reports whether a folder of the state dir holds a workspace
// back-pointer (and so is no orphan).
func isLinkFolder(d *state.Dir, name string) bool {
	_, err := os.Stat(filepath.Join(d.Path, name, LinkFile))
	return err == nil
}
