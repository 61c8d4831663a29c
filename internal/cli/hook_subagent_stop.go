package cli

import (
	"encoding/json"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// HookSubagentStopCmd is `hook subagent-stop`.
type HookSubagentStopCmd struct{}

// stoppedWhy is the reason the journal gives for a claim the hook released.
const stoppedWhy = "released: the subagent stopped"

// Help is the detail of hook subagent-stop --help: the payload fields read.
func (c *HookSubagentStopCmd) Help() string {
	return hookHelp("SubagentStop", "cwd", "agent_id", "agent_type") + `
It releases the claims of the agent id hook subagent-start gave the
subagent (agent_type-agent_id) on the slices that are still open, in the
session selected where it stops (in a worktree bound to none with no
session of its own, the one of $CLAUDE_PROJECT_DIR), journaled with why.
A claim of any other agent, on a closed slice, or claimed or renewed after
the stop (journaled after the hook began, or stamped later) is left alone. It prints nothing and exits 0.`
}

// Run releases what a stopped subagent still holds, so other agents need
// not wait for its leases to end. Only the subagent's own id is matched:
// the stop proves that agent is gone, and nothing else.
func (c *HookSubagentStopCmd) Run(e *Env) error {
	p, err := e.payload()
	if err != nil {
		return e.problem(err)
	}
	agent := subagentID(p.AgentType, p.AgentID)
	if agent == "" {
		return nil // not a subagent the client named: nothing is proven
	}
	e.actor = "hook:SubagentStop"
	stop := e.stamp()
	s, err := e.subagentSession()
	if err != nil || s == nil {
		if err != nil {
			return e.problem(err)
		}
		return nil
	}
	// What the journal held when the hook began: the stop came before it.
	seen := 0
	if d, err := e.Dir(); err == nil {
		if last, ok, err := journal.Last(d.File(s.SessionID, journal.FileName)); err == nil && ok {
			seen = last.Seq
		}
	}
	err = e.onChoice(selection.ByID(s.SessionID), func(tx *state.Tx, s *registry.Session) error {
		data, err := tx.Read(s.SessionID, state.LedgerFile)
		if err != nil || data == nil {
			return err
		}
		l, err := slices.Parse(data)
		if err != nil {
			return err
		}
		later, err := claimedSince(tx, s.SessionID, agent, stop, seen)
		if err != nil {
			return err
		}
		var released []string
		for _, sl := range l.Slices() {
			if sl.ClaimedBy != agent || slices.Closing[sl.Status] || later[sl.ID] {
				continue
			}
			if _, err := l.Release(sl.ID, agent, e.now(), false); err != nil {
				return err
			}
			released = append(released, sl.ID)
		}
		if len(released) == 0 {
			return nil
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		tx.Touch(s.SessionID, map[string]any{"agent": agent, "ids": released, "why": stoppedWhy})
		return nil
	})
	if err != nil {
		return e.problem(err)
	}
	return nil
}

// subagentSession is the live session a subagent hook works on: the one
// selected at the payload's cwd, else, in a linked worktree bound to none
// (the one Claude Code makes for an isolated subagent), the one selected
// in $CLAUDE_PROJECT_DIR. nil when there is none.
func (e *Env) subagentSession() (*registry.Session, error) {
	unbound := e.unboundLinked()
	_, _, s, err := e.liveSession()
	if err == nil && s == nil && unbound {
		if dir := e.getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			e.enter(e.abs(dir))
			_, _, s, err = e.liveSession()
		}
	}
	return s, err
}

// claimedSince returns the slices agent claimed or renewed after the stop
// by the journal of session id: a subagent resumed after its stop (the
// client can resume one with the same id) holds those anew. An entry is
// after the stop when the journal had not reached it as the hook began
// (its seq is past seen), or when its time is past stop (journal times
// have whole seconds: within the stop's second, seq decides).
func claimedSince(tx *state.Tx, id, agent, stop string, seen int) (map[string]bool, error) {
	data, err := tx.Read(id, journal.FileName)
	if err != nil || data == nil {
		return nil, err
	}
	entries, _, err := journal.Parse(data)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, en := range entries {
		if en.Seq <= seen && en.At <= stop { // registry.Stamp: UTC, so text order is time order
			continue
		}
		if en.Verb != "slice claim" && en.Verb != "slice renew" {
			continue
		}
		var args struct{ ID, Agent string }
		if json.Unmarshal(en.Args, &args) == nil && args.Agent == agent {
			out[args.ID] = true
		}
	}
	return out, nil
}
