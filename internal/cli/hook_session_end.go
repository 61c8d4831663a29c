package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/verify"
)

// HookSessionEndCmd is `hook session-end`.
type HookSessionEndCmd struct{}

// Help is the detail of hook session-end --help: the payload fields read.
func (c *HookSessionEndCmd) Help() string {
	return hookHelp("SessionEnd", "cwd", "agent_id", "reason") + `
With a live session on the branch of cwd, it writes the Auto-checkpoint
(trigger session-end), so the next session's resume packet is fresh; the
claims of the session's agents are kept (a resumed session continues them)
and the packet lists them. The client does not fire SessionEnd on every
exit and gives all its hooks 1.5 s together: nothing depends on it. It
prints nothing and exits 0.`
}

// Run writes the Auto-checkpoint as the session ends.
func (c *HookSessionEndCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	return autoCheckpointHook(o, w, where, txn, "SessionEnd", "session-end", false)
}

// autoCheckpointHook is the body of the hooks that only write the
// Auto-checkpoint of the live session of the payload's cwd with trigger:
// nothing for a subagent (agent_id set), nothing without a live session,
// one stderr line on a problem; always exit 0, never any stdout. With
// onlyIfChanged, nothing either when HEAD and the dirty set are as the
// last Auto-checkpoint recorded them.
func autoCheckpointHook(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn, event, trigger string, onlyIfChanged bool) error {
	p, err := payload(o, w)
	if err != nil {
		return o.Problem(err)
	}
	if p.AgentID != "" {
		return nil
	}
	txn.SetHookActor(event)
	d, _, s, err := where.Live()
	if err != nil || s == nil {
		if err != nil {
			return o.Problem(err)
		}
		return nil
	}
	g := verify.Observe(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	if onlyIfChanged && !gitChangedSinceAuto(d, s, g) {
		return nil
	}
	if err := writeAuto(w, txn, s.SessionID, g, trigger); err != nil {
		return o.Problem(err)
	}
	return nil
}
