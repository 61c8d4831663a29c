// Package workspace owns linking a workspace session to its member
// repositories (docs/protocol.md §15): `workspace link` writes the
// back-pointer .orc/<sessionId>/workspace-link.json into each member
// repository that has a path, one transaction in that member's state dir,
// then journals how many it linked in the session's own. The link's
// format, and following it back from a member (the workspace sessions
// sessions lists and resume shows), are package selection's.
//
// It reads the run through Run (plain values and functions), never the
// application's own types. It imports selection, state, gitx, registry
// and leaf packages; internal/app imports it, and nothing below the
// application does.
package workspace

import (
	"context"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Run is what Link reads of the run.
type Run struct {
	Where selection.Where // where the workspace session was selected
	// Options are the run's transaction options (the verb and actor it
	// journals, the lock timeout, the streams), asked for as each
	// transaction opens: an actor the journal cannot keep is refused then.
	Options func() (state.Options, error)
	Environ environ.List     // the run's environment, which finds each member's repository
	Clock   func() time.Time // the time the members' transactions record
}

// Member is one member repository as Link reports it, in the session's
// order of repos.
type Member struct {
	Name string
	// Link is the link file written; "" when the member has no path
	// (nothing was written: repo set --path gives it one).
	Link string
}

// Link writes the link of workspace session s (in state dir d) into each
// member repository that has a path, reporting each member as it is done,
// then journals in s how many it linked. A session that is not a
// workspace's, a member path that is no repository, or no member with a
// path at all is refused; the members linked before a refusal stay
// linked (writing a link again changes nothing).
func (r Run) Link(d *state.Dir, s *registry.Session, report func(Member)) error {
	if s.Scope != registry.ScopeWorkspace {
		return fault.Usagef("session %s is not a workspace session", s.SessionID)
	}
	root := filepath.Dir(d.Path)
	linked := 0
	for _, name := range s.Repos {
		rs, ok := s.PerRepoState[name]
		if !ok || rs.RepoPath == "" {
			report(Member{Name: name})
			continue
		}
		l, err := gitx.Discover(rs.RepoPath, r.Environ)
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
		member := &state.Dir{Path: filepath.Join(parent, ".orc"), Git: &l, Clock: r.Clock}
		opts, err := r.Options()
		if err != nil {
			return err
		}
		err = member.Update(context.Background(), opts, func(tx *state.Tx) error {
			tx.WriteState(filepath.Join(s.SessionID, selection.LinkFile), append(link, '\n'))
			return nil
		})
		if err != nil {
			return err
		}
		linked++
		report(Member{Name: name, Link: filepath.Join(member.Path, s.SessionID, selection.LinkFile)})
	}
	if linked == 0 {
		return fault.NotFoundf("no member repository has a path").WithHint("orc-state repo set NAME --path P")
	}
	opts, err := r.Options()
	if err != nil {
		return err
	}
	return r.Where.On(d, selection.ByID(s.SessionID), opts, func(tx *state.Tx, s *registry.Session) error {
		tx.Touch(s.SessionID, map[string]int{"linked": linked})
		return nil
	})
}
