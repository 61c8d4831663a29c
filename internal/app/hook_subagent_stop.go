package app

import "github.com/orc-state/orc-state/internal/worktrees"

// HookSubagentStop is `hook subagent-stop`: it reads the payload and
// releases what the stopped subagent (agent_type-agent_id) still holds in
// the session selected where it stops (see hookSubagentSession;
// worktrees.Run.ReleaseStopped), so other agents need not wait for its
// leases to end. Nothing for a payload that names no subagent, or without
// a live session. It prints nothing and returns the problem the hook
// reports (nil: none).
func HookSubagentStop(o *Streams, w *World, sd *StateDir, txn *Txn) error {
	p, err := readHook(o, w, txn, "SubagentStop")
	if err != nil {
		return err
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if agent == "" {
		return nil // not a subagent the client named: nothing is proven
	}
	stop := w.Stamp()
	s, err := hookSubagentSession(w, sd, txn)
	if err != nil || s == nil {
		return err
	}
	return txn.Worktrees().ReleaseStopped(s.SessionID, agent, stop)
}
