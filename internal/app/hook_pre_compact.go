package app

import (
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/internal/verify"
)

// HookPreCompact is `hook pre-compact`: it reads the payload and, with a
// live session on the branch of its cwd, writes the session's
// Auto-checkpoint with the payload's trigger ("auto" when it has none, or
// one that is not a line of at most 64 bytes). A subagent's compaction
// (agent_id set) writes nothing. It prints nothing and returns the
// problem the hook reports on stderr (nil: none).
func HookPreCompact(o *Streams, w *World, txn *Txn) error {
	p, err := readHook(o, w, txn, "PreCompact")
	if err != nil {
		return err
	}
	if p.AgentID != "" {
		return nil
	}
	d, _, s, err := txn.where.Live()
	if err != nil || s == nil {
		return err
	}
	trigger := p.Trigger
	if trigger == "" || textin.SingleLine("trigger", trigger) != nil || len(trigger) > 64 {
		trigger = "auto"
	}
	g := verify.ObserveOnly(d, s.GitBranch, 0)
	g.Close() // its git process ends before the lock is taken (docs/protocol.md §4)
	return writeAutoCheckpoint(w, txn, s.SessionID, g, trigger)
}
