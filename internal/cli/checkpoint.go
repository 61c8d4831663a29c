package cli

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// CheckpointCmd is `checkpoint [--auto]`.
type CheckpointCmd struct {
	BranchFlag
	Auto    bool   `help:"The original's spelling, accepted: the Auto-checkpoint is what checkpoint always writes."`
	Trigger string `default:"auto" help:"What triggered it (auto, manual, stop, ...)." placeholder:"T"`
}

// Help is the detail of checkpoint --help: what it writes.
func (c *CheckpointCmd) Help() string {
	return `Writes the session's "## Auto-checkpoint" section of checkpoint.md, the same
with or without --auto: the time and the trigger, the phase and its label, the
slices done of total and the open ones, HEAD (short sha and subject) and the
dirty files (count and the first five, .orc/ left out), as git says them now.
It never touches the Resume digest (digest write -) and does not change
updatedAt. The PreCompact and Stop hooks write the same section.`
}

// Run writes the Auto-checkpoint section. Git is asked first; the phase and
// slices are read inside the lock so they match the frontmatter written
// with them. The digest is never touched and updatedAt is not bumped.
// --auto is the original's spelling and changes nothing: the section is
// the only one this verb writes (docs/protocol.md §9).
func (c *CheckpointCmd) Run(e *Env) error {
	if err := textin.SingleLine("--trigger", c.Trigger); err != nil || len(c.Trigger) > 64 {
		return fault.Usagef("--trigger must be one line of at most 64 bytes")
	}
	if err := refuseSecrets("--trigger", []byte(c.Trigger)); err != nil {
		return err
	}
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	g := verify.Observe(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	return e.writeAuto(s.SessionID, g, c.Trigger)
}

// autoFromGit fills the git lines of an Auto-checkpoint from what git
// said about the branch (gathered before the lock). What git could not say
// is written as unknown (why), never as a clean tree. What the repository
// holds is not input the user can take back: a commit subject or a file
// name shaped like a credential is written redacted, so the checkpoint
// (and the hook that writes it) still works.
func autoFromGit(g verify.Reality) checkpoint.Auto {
	a := gitFacts(g)
	a.HeadState, a.HeadSubject = secrets.Redact(a.HeadState), secrets.Redact(a.HeadSubject)
	if a.DirtyPaths != nil {
		paths := make([]string, len(a.DirtyPaths))
		for i, p := range a.DirtyPaths {
			paths[i] = secrets.Redact(p)
		}
		a.DirtyPaths = paths
	}
	return a
}

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

// writeAuto writes the Auto-checkpoint of session id from what git said
// (g, gathered before the lock).
func (e *Env) writeAuto(id string, g verify.Reality, trigger string) error {
	return e.onChoice(selection.ByID(id), func(tx *state.Tx, s *registry.Session) error {
		a := autoFromGit(g)
		a.At, a.Trigger = e.stamp(), trigger
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
		if err := tx.WriteCheckpoint(s, fitAuto(s, body, a)); err != nil {
			return err
		}
		tx.Touch(s.SessionID, map[string]string{"trigger": trigger, "head": g.Head.SHA})
		return nil
	})
}

// fitAuto renders the Auto-checkpoint into body, shortening the section
// (open slice ids, the subject, then dirty paths) when the whole file
// would pass its cap: a pre-compaction checkpoint is worth more short than
// refused. The counts always stay.
func fitAuto(s *registry.Session, body []byte, a checkpoint.Auto) []byte {
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
