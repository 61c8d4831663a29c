// Package autocheckpoint owns the "## Auto-checkpoint" section of a
// session's checkpoint.md as `checkpoint` and the PreCompact, SessionEnd
// and Stop hooks write it (docs/protocol.md §9): the facts from what git
// said about the branch (gathered before the lock; what git could not say
// is written as unknown, never as a clean tree; a subject or path shaped
// like a credential is redacted), the phase and slices read inside the
// transaction, and the section shortened to fit under the file's cap. The
// format itself is package checkpoint's.
package autocheckpoint

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// FromGit fills the git lines of an Auto-checkpoint from what git
// said about the branch (gathered before the lock). What git could not say
// is written as unknown (why), never as a clean tree. What the repository
// holds is not input the user can take back: a commit subject or a file
// name shaped like a credential is written redacted, so the checkpoint
// (and the hook that writes it) still works. Of the dirty paths only the
// ones the section can show are kept (and redacted), with the count of
// all: a large work tree's hundreds are not scanned for nothing.
func FromGit(g verify.Reality) checkpoint.Auto {
	a := gitFacts(g)
	a.HeadState, a.HeadSubject = secrets.Redact(a.HeadState), secrets.Redact(a.HeadSubject)
	if a.DirtyPaths != nil {
		paths := make([]string, min(len(a.DirtyPaths), ShownPaths))
		for i, p := range a.DirtyPaths[:len(paths)] {
			paths[i] = secrets.Redact(p)
		}
		a.DirtyPaths = paths
	}
	return a
}

// ShownPaths is how many dirty paths checkpoint.RenderAuto shows (the
// count says how many more there are).
const ShownPaths = 5

func gitFacts(g verify.Reality) checkpoint.Auto {
	var a checkpoint.Auto
	switch {
	case g.Err != nil:
		a.HeadState = "unknown (" + g.Err.Error() + ")"
	case g.Unborn:
		a.HeadState = "unborn"
	case !g.HeadOK:
		a.HeadState = "unknown (branch does not exist)"
	default:
		if g.Head.Detached {
			a.HeadState = "detached"
		}
		a.HeadShort, a.HeadSubject = g.Head.SHA[:7], g.Head.Subject
	}
	a.DirtyTimedOut = g.Dirty.TimedOut
	a.DirtyKnown = g.Dirty.Known
	if !g.Dirty.Known && !g.Dirty.TimedOut {
		a.DirtyNote = g.DirtyNote()
	}
	a.DirtyPaths, a.DirtyCount = g.Paths, len(g.Paths)
	return a
}

// Write writes the Auto-checkpoint of session s inside tx from what git
// said (g, gathered before the lock), stamped at with trigger; the phase
// and the slices are read here, under the lock, so they match the
// frontmatter written with them. The digest is never touched.
func Write(tx *state.Tx, s *registry.Session, g verify.Reality, trigger, at string) error {
	a := FromGit(g)
	a.At, a.Trigger = at, trigger
	a.Phase, a.TotalPhases, a.PhaseLabel = s.Phase.String(), s.TotalPhases, registry.Deref(s.PhaseLabel)
	if data, err := tx.Read(s.SessionID, state.LedgerFile); err != nil {
		return err
	} else if data != nil {
		l, err := slices.Parse(data)
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
	if err := tx.WriteCheckpoint(s, fit(s, body, a)); err != nil {
		return err
	}
	tx.Touch(s.SessionID, map[string]string{"trigger": trigger, "head": g.Head.SHA})
	return nil
}

// fit renders the Auto-checkpoint into body, shortening the section
// (open slice ids, the subject, then dirty paths) when the whole file
// would pass its cap: a pre-compaction checkpoint is worth more short than
// refused. The counts always stay.
func fit(s *registry.Session, body []byte, a checkpoint.Auto) []byte {
	fits := func(b []byte) bool {
		out, err := checkpoint.Render(state.Frontmatter(s), b)
		return err == nil && len(out) <= checkpoint.MaxFileBytes
	}
	out := checkpoint.SetAuto(body, checkpoint.RenderAuto(a))
	for _, shorten := range []func(*checkpoint.Auto){
		func(a *checkpoint.Auto) { a.OpenSlices = first(a.OpenSlices, 3) },
		func(a *checkpoint.Auto) { a.OpenSlices, a.HeadSubject = nil, "" },
		func(a *checkpoint.Auto) { a.DirtyPaths = first(a.DirtyPaths, 2) },
		func(a *checkpoint.Auto) { a.DirtyPaths = nil },
	} {
		if fits(out) {
			break
		}
		shorten(&a)
		out = checkpoint.SetAuto(body, checkpoint.RenderAuto(a))
	}
	return out
}

func first(list []string, n int) []string {
	if len(list) > n {
		return list[:n]
	}
	return list
}
