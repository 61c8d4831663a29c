package cli

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
)

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	Key   string `arg:"" help:"Branch or sessionId."`
	Force bool   `help:"Also remove an in_progress or paused session."`
}

// Run removes one session: entry, folder, tombstone.
func (c *SessionRemoveCmd) Run(e *Env) error {
	return e.Update(func(tx *state.Tx) error {
		s := lookup(tx.Reg, c.Key)
		if s == nil {
			return notFound(c.Key)
		}
		if (s.Status == "in_progress" || s.Status == "paused") && !c.Force {
			return fault.Usagef("session %s is %s; refusing to remove a live session", s.SessionID, s.Status).
				WithHint("pass --force to remove it anyway, or orc-state status set completed first")
		}
		tx.RemoveSession(*s)
		return nil
	})
}
