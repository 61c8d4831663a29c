package selection

// The workspace sessions a repository is a member of: the link file a
// workspace writes into each member (workspace link), followed back.

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

// Link is the content of LinkFile.
type Link struct {
	Scope         string `json:"scope"` // always LinkScope
	WorkspaceRoot string `json:"workspaceRoot"`
	WorkspaceName string `json:"workspaceName"`
	SessionID     string `json:"sessionId"`
	Branch        string `json:"branch"`
}

// LinkScope is the scope every Link has.
const LinkScope = "workspace-member"

// Linked is a workspace session this repository is a member of, found
// through a LinkFile in its state dir.
type Linked struct {
	Dir     *state.Dir // the workspace's state dir
	Reg     *registry.Registry
	Session *registry.Session
	Branch  string // the member's branch the link names
}

// LinkedSessions follows every LinkFile of this repository's state dir d
// to its workspace session (links whose workspace or session is gone are
// skipped).
func LinkedSessions(d *state.Dir) []Linked {
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return nil
	}
	var out []Linked
	for _, en := range entries {
		data, err := readFileSmall(filepath.Join(d.Path, en.Name(), LinkFile))
		if err != nil {
			continue
		}
		var link Link
		if json.Unmarshal(data, &link) != nil || link.Scope != LinkScope {
			continue
		}
		ws := &state.Dir{Path: filepath.Join(link.WorkspaceRoot, ".orc"), Git: d.Git, Clock: d.Clock}
		reg, _, err := ws.ReadRegistry()
		if err != nil {
			continue
		}
		if s := reg.Exact(link.SessionID); s != nil {
			out = append(out, Linked{Dir: ws, Reg: reg, Session: s, Branch: link.Branch})
		}
	}
	return out
}

// linkedTo is the workspace session linked to key: the member's branch
// the link names, or the workspace's sessionId. ok false when none.
func linkedTo(d *state.Dir, key string) (l Linked, ok bool) {
	for _, l := range LinkedSessions(d) {
		if l.Branch == key || l.Session.SessionID == key {
			return l, true
		}
	}
	return Linked{}, false
}

// IsLinkFolder reports whether a folder of the state dir d holds a
// workspace back-pointer (and so is no orphan).
func IsLinkFolder(d *state.Dir, name string) bool {
	_, err := os.Stat(filepath.Join(d.Path, name, LinkFile))
	return err == nil
}

// readFileSmall reads a small file (a link) refusing anything over 4 KiB.
func readFileSmall(path string) ([]byte, error) {
	data, err := atomicfile.ReadFile(path)
	if err == nil && len(data) > 4096 {
		return nil, fmt.Errorf("%s is too large", path)
	}
	return data, err
}
