package cli

import "github.com/orc-state/orc-state/internal/app"

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
// compaction (app.HookPreCompact). Subagents are skipped. It prints
// nothing and exits 0.
func (c *HookPreCompactCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	return hookProblem(o, app.HookPreCompact(o, w, txn))
}
