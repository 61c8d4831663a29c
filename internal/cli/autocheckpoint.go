package cli

import (
	"context"
	"path/filepath"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	ledger "github.com/orc-state/orc-state/slices"
)

// gitSnapshot is what an auto-checkpoint records from git, gathered before
// the lock is taken.
type gitSnapshot struct {
	checkpoint.Auto
	HeadSHA string // full sha, "" when unborn or unknown
}

// snapshotGit reads HEAD and the dirty list of the worktree where branch is
// checked out (the current one when branch is ""), with a timeout on git.
func snapshotGit(d *state.Dir, branch string) gitSnapshot {
	var g gitSnapshot
	if d.Git == nil {
		g.HeadState = "unknown (not a git work tree)"
		return g
	}
	root := d.Git.WorktreeRoot
	if cur, _, _ := d.Git.CurrentBranch(); branch != "" && cur != branch {
		trees, _ := d.Git.Worktrees()
		w, ok := trees[branch]
		if !ok {
			return branchOnly(d, branch)
		}
		root = w
	}
	r, err := gitx.Open(root)
	if err != nil {
		g.HeadState = "unknown (" + err.Error() + ")"
		return g
	}
	h, err := r.Head()
	switch {
	case err != nil:
		g.HeadState = "unknown (" + err.Error() + ")"
	case h.Unborn:
		g.HeadState = "unborn"
	default:
		if h.Detached {
			g.HeadState = "detached"
		}
		g.HeadSHA, g.HeadShort, g.HeadSubject = h.SHA, h.SHA[:7], h.Subject
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusTimeout)
	defer cancel()
	st, err := r.Status(ctx)
	switch {
	case err != nil:
	case st.TimedOut:
		g.DirtyTimedOut = true
	default:
		g.DirtyKnown, g.DirtyApprox = true, st.Approximate
		rel, _ := filepath.Rel(root, d.Path)
		g.DirtyPaths = dirtyPaths(st, filepath.ToSlash(rel))
		g.DirtyCount = len(g.DirtyPaths)
	}
	return g
}

// branchOnly describes a branch that is not checked out anywhere: its head
// commit, and no dirty list.
func branchOnly(d *state.Dir, branch string) gitSnapshot {
	var g gitSnapshot
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		g.HeadState = "unknown (" + err.Error() + ")"
		return g
	}
	sha, ok := r.BranchHead(branch)
	if !ok {
		g.HeadState = "unknown (branch does not exist)"
		return g
	}
	g.HeadSHA, g.HeadShort = sha, sha[:7]
	if c, ok := r.Commit(sha); ok {
		g.HeadSubject = c.Subject
	}
	return g
}

// Run writes the Auto-checkpoint section. Git is asked first; the phase and
// slices are read inside the lock so they match the frontmatter written
// with them. The digest is never touched and updatedAt is not bumped.
func (c *CheckpointCmd) Run(e *Env) error {
	if !c.Auto {
		return fault.Usagef("only --auto is supported").WithHint("orc-state checkpoint --auto [--trigger T]")
	}
	if err := registry.SingleLine("--trigger", c.Trigger); err != nil || len(c.Trigger) > 64 {
		return fault.Usagef("--trigger must be one line of at most 64 bytes")
	}
	key, err := e.Branch(c.Branch)
	if err != nil {
		return err
	}
	d, err := e.Dir()
	if err != nil {
		return err
	}
	branch := key
	if reg, _, err := d.ReadRegistry(); err == nil {
		if s := lookup(reg, key); s != nil {
			branch = s.GitBranch
		}
	}
	snap := snapshotGit(d, branch)
	return e.onSession(key, func(tx *state.Tx, s *registry.Session) error {
		a := snap.Auto
		a.At, a.Trigger = registry.Now(), c.Trigger
		a.Phase, a.TotalPhases, a.PhaseLabel = s.Phase.String(), s.TotalPhases, registry.Deref(s.PhaseLabel)
		if data, err := tx.Read(s.SessionID, state.LedgerFile); err != nil {
			return err
		} else if data != nil {
			l, err := ledger.Parse(data)
			if err != nil {
				return err
			}
			a.HasLedger = true
			a.SlicesDone, a.SlicesTotal = l.Done()
			a.OpenSlices = l.Open()
		}
		body, err := tx.Body(s.SessionID)
		if err != nil {
			return err
		}
		if err := tx.WriteCheckpoint(s, checkpoint.SetAuto(body, checkpoint.RenderAuto(a))); err != nil {
			return err
		}
		tx.Touch(s.SessionID, map[string]string{"trigger": c.Trigger, "head": snap.HeadSHA})
		return nil
	})
}
