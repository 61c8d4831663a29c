package app

import (
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/autocheckpoint"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// HookStop is `hook stop`: at the end of a turn it rewrites the
// Auto-checkpoint of the live session of the payload's cwd, trigger stop,
// only when HEAD or the dirty set changed since the last one (see
// hookAutoCheckpoint). It returns the problem the hook reports (nil:
// none).
func HookStop(o *Streams, w *World, txn *Txn) error {
	return hookAutoCheckpoint(o, w, txn, "Stop", "stop", true)
}

// hookGitChangedSinceAuto compares the HEAD and Dirty lines the last
// Auto-checkpoint recorded with what git says now.
func hookGitChangedSinceAuto(d *state.Dir, s *registry.Session, g verify.Reality) bool {
	data, _ := d.ReadFile(s.SessionID, state.CheckpointFile)
	if data == nil {
		return true
	}
	old, n := checkpoint.Section(checkpoint.Parse(data).Body, checkpoint.AutoHeading)
	if n == 0 {
		return true
	}
	now := checkpoint.RenderAuto(autocheckpoint.FromGit(g))
	return hookGitLines(old) != hookGitLines(now)
}

// hookGitLines is the HEAD and Dirty lines of an Auto-checkpoint section.
func hookGitLines(section []byte) string {
	var keep []string
	for _, l := range strings.Split(string(section), "\n") {
		if strings.HasPrefix(l, "- HEAD:") || strings.HasPrefix(l, "- Dirty:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
