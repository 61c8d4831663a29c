package cli

import (
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// SessionRemoveCmd is `session remove`.
type SessionRemoveCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (or pass --branch or --session)."`
	Force bool   `help:"Also remove an in_progress or paused session."`
}

// Run removes one session: entry, folder, tombstone.
func (c *SessionRemoveCmd) Run(e *Env) error {
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	if key == "" && e.sessionFlag == "" {
		return fault.Usagef("name the session to remove").WithHint("orc-state session remove B, or --session S")
	}
	ch, err := e.choose(key)
	if err != nil {
		return err
	}
	return e.Update(func(tx *state.Tx) error {
		s, err := ch.find(tx.Reg)
		if err != nil {
			return err
		}
		if (s.Status == "in_progress" || s.Status == "paused") && !c.Force {
			return fault.Usagef("session %s is %s; refusing to remove a live session", s.SessionID, s.Status).
				WithHint("pass --force to remove it anyway, or orc-state status set completed --session %s first", safetext.Quote(s.SessionID))
		}
		tx.RemoveSession(*s)
		return unbindSessions(tx, s.SessionID) // the worktrees stay
	})
}
