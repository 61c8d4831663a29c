package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/textin"
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

// Run checks --trigger and writes the Auto-checkpoint section
// (app.Checkpoint): git is asked first; the phase and slices are read
// inside the lock so they match the frontmatter written with them. The
// digest is never touched and updatedAt is not bumped. --auto is the
// original's spelling and changes nothing: the section is the only one
// this verb writes (docs/protocol.md §9).
func (c *CheckpointCmd) Run(w *app.World, txn *app.Txn) error {
	if err := textin.SingleLine("--trigger", c.Trigger); err != nil || len(c.Trigger) > 64 {
		return fault.Usagef("--trigger must be one line of at most 64 bytes")
	}
	if err := input.RefuseSecrets("--trigger", []byte(c.Trigger)); err != nil {
		return err
	}
	return app.Checkpoint(w, txn, c.Branch, c.Trigger)
}
