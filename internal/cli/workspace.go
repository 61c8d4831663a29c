package cli

// What the workspace verbs and the readers of member repositories share:
// the link file a workspace writes into each member.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/atomicfile"
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
		ws := &state.Dir{Path: filepath.Join(link.WorkspaceRoot, ".orc"), Git: d.Git, Clock: d.Clock}
		reg, _, err := ws.ReadRegistry()
		if err != nil {
			continue
		}
		if s := reg.Exact(link.SessionID); s != nil {
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

// isLinkFolder reports whether a folder of the state dir holds a workspace
// back-pointer (and so is no orphan).
func isLinkFolder(d *state.Dir, name string) bool {
	_, err := os.Stat(filepath.Join(d.Path, name, LinkFile))
	return err == nil
}

// readFileSmall reads a small file (a ref) refusing anything over 4 KiB.
func readFileSmall(path string) ([]byte, error) {
	data, err := atomicfile.ReadFile(path)
	if err == nil && len(data) > 4096 {
		return nil, fmt.Errorf("%s is too large", path)
	}
	return data, err
}
