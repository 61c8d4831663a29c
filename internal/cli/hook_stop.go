package cli

import (
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/autocheckpoint"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// HookStopCmd is `hook stop`.
type HookStopCmd struct{}

// Help is the detail of hook stop --help: the payload fields read.
func (c *HookStopCmd) Help() string {
	return hookHelp("Stop", "cwd", "agent_id") + `
With a live session on the branch of cwd, it rewrites the Auto-checkpoint
(trigger stop) when HEAD or the dirty files differ from the last one; a
subagent's turn (agent_id set) writes nothing. It prints nothing and exits 0.`
}

// Run refreshes the Auto-checkpoint at the end of a turn, only when HEAD
// or the dirty set changed since the last one. It prints nothing.
func (c *HookStopCmd) Run(o *app.Streams, w *app.World, where *selection.Where, txn *app.Txn) error {
	return autoCheckpointHook(o, w, where, txn, "Stop", "stop", true)
}

// gitChangedSinceAuto compares the HEAD and Dirty lines the last
// Auto-checkpoint recorded with what git says now.
func gitChangedSinceAuto(d *state.Dir, s *registry.Session, g verify.Reality) bool {
	data, _ := d.ReadFile(s.SessionID, state.CheckpointFile)
	if data == nil {
		return true
	}
	old, n := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.AutoHeading)
	if n == 0 {
		return true
	}
	now := checkpoint.RenderAuto(autocheckpoint.FromGit(g))
	return gitLines(old) != gitLines(now)
}

func gitLines(section []byte) string {
	var keep []string
	for _, l := range strings.Split(string(section), "\n") {
		if strings.HasPrefix(l, "- HEAD:") || strings.HasPrefix(l, "- Dirty:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
