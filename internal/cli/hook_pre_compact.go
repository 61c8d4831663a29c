package cli

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
)

// HookPreCompactCmd is `hook pre-compact`.
type HookPreCompactCmd struct{}

// Help is the detail of hook pre-compact --help: the payload fields read.
func (c *HookPreCompactCmd) Help() string {
	return hookHelp("PreCompact", "cwd", "agent_id", "trigger") + `
With a live session on the branch of cwd (in_progress or paused), it writes
the Auto-checkpoint (checkpoint --trigger <trigger>); a subagent's
compaction (agent_id set) writes nothing. It prints nothing and exits 0,
saying on stderr why when something failed.`
}

// Run writes the Auto-checkpoint of the current branch's session before
// compaction. Subagents are skipped. It prints nothing and exits 0.
func (c *HookPreCompactCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	p, err := payload(o, w)
	if err != nil {
		return o.Problem(err)
	}
	if p.AgentID != "" {
		return nil
	}
	txn.SetHookActor("PreCompact")
	d, _, s, err := where.Live()
	if err != nil || s == nil {
		if err != nil {
			return o.Problem(err)
		}
		return nil
	}
	trigger := p.Trigger
	if trigger == "" || textin.SingleLine("trigger", trigger) != nil || len(trigger) > 64 {
		trigger = "auto"
	}
	g := verify.ObserveOnly(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	if err := writeAuto(w, txn, s.SessionID, g, trigger); err != nil {
		return o.Problem(err)
	}
	return nil
}
