package app

import (
	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/resume"
	"github.com/orc-state/orc-state/internal/worktrees"
)

// HookSubagentStart is `hook subagent-start`: it reads the payload and
// builds the hook's answer telling a subagent, as additionalContext,
// which session it works for, the agent id to claim slices with (the
// worktree's own agent when it is bound to one, else agent_type-agent_id,
// else the run's agent) and the claim protocol (packet.SubagentBrief). It
// returns that answer, or nil when there is no live session where the
// subagent starts (see hookSubagentSession), and the problem the hook
// reports (nil: none).
func HookSubagentStart(o *Streams, w *World, sd *StateDir, txn *Txn) (*resume.HookOutput, error) {
	p, err := readHook(o, w, txn, "SubagentStart")
	if err != nil {
		return nil, err
	}
	s, err := hookSubagentSession(w, sd, txn)
	if err != nil || s == nil {
		return nil, err
	}
	agent := worktrees.SubagentID(p.AgentType, p.AgentID)
	if b, err := sd.Binding(); err == nil && b != nil && b.Agent != "" {
		agent = b.Agent // the worktree's own agent
	}
	if agent == "" {
		if agent, err = txn.where.Agent("", w.Wd()); err != nil {
			return nil, err
		}
	}
	out := &resume.HookOutput{}
	out.HookSpecificOutput.HookEventName = "SubagentStart"
	out.HookSpecificOutput.AdditionalContext = packet.SubagentBrief(s, agent)
	return out, nil
}
