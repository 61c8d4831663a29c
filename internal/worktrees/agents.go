package worktrees

// The agent ids parallel agents work as: a new --agent, a subagent's
// (the SubagentStart, SubagentStop and WorktreeCreate hooks), and what a
// stopped subagent's claims become.

import (
	"encoding/json"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// CheckAgent refuses an --agent a binding cannot record (the rules of
// slice claim's --agent, and CheckNewAgent's); "" (none) passes.
func CheckAgent(agent string) error {
	if agent == "" {
		return nil
	}
	if err := slices.CheckAgent(agent); err != nil {
		return err
	}
	if err := input.RefuseSecrets("--agent", []byte(agent)); err != nil {
		return err
	}
	return CheckNewAgent(agent)
}

// CheckNewAgent refuses an --agent that new data would record (a claim,
// a binding) outside the safe alphabet of slice ids (docs/protocol.md §4,
// §7): such an id is printed and pasted as itself and never reads as a
// flag. "" (the default agent) passes.
func CheckNewAgent(agent string) error {
	if agent == "" {
		return nil
	}
	if p := safetext.NameProblem(agent, safetext.MaxName); p != "" {
		return fault.Usagef("--agent %s %s; a new agent id is %s, at most %d characters", safetext.Quote(agent), p, safetext.Alphabet, safetext.MaxName).
			WithHint("pass --agent=NAME with such a name")
	}
	return nil
}

// agentTaken refuses a second worktree for one agent id in a session.
func agentTaken(agent, session string, h *binding.Binding) error {
	return fault.Usagef("agent %s is already bound in session %s, to the worktree %s", safetext.Escape(agent), session, safetext.Escape(h.Path)).
		WithHint("pass another --agent: two worktrees with one agent id would hold each other's claims")
}

// SubagentID is the agent id for a subagent the client names by type and
// id ("general-purpose" and "a1b2…"): both, reduced to the safe alphabet
// (every other character a "-"), the type's leading characters that are
// not a letter or digit dropped, so that the id starts with one and can
// never read as a flag ("subagent" when no type is left); "" when the
// client gave no id.
func SubagentID(agentType, id string) string {
	keep := func(s string, n int) string {
		s = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
				return r
			}
			return '-'
		}, s)
		if len(s) > n {
			s = s[:n]
		}
		return s
	}
	if id = keep(id, 64); id == "" {
		return ""
	}
	t := strings.TrimLeft(keep(agentType, 40), "-._")
	if t == "" {
		t = "subagent"
	}
	return t + "-" + id
}

// StoppedWhy is the reason the journal gives for a claim released because
// its subagent stopped.
const StoppedWhy = "released: the subagent stopped"

// ReleaseStopped releases, in one transaction on session id, the claims
// of agent (a stopped subagent's id) on the slices that are still open,
// journaled with StoppedWhy. A claim of any other agent, on a closed
// slice, or claimed or renewed after stop (the hook's recorded start: the
// client can resume a subagent with the same id) is left alone. Only the
// subagent's own id is matched: the stop proves that agent is gone, and
// nothing else.
func (r Run) ReleaseStopped(id, agent, stop string) error {
	// What the journal held when the hook began: the stop came before it.
	seen := 0
	if d, err := r.Where.Dir(); err == nil {
		if last, ok, err := journal.Last(d.File(id, journal.FileName)); err == nil && ok {
			seen = last.Seq
		}
	}
	return r.on(selection.ByID(id), func(tx *state.Tx, s *registry.Session) error {
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
			if _, err := l.Release(sl.ID, agent, r.Now(), false); err != nil {
				return err
			}
			released = append(released, sl.ID)
		}
		if len(released) == 0 {
			return nil
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		tx.Touch(s.SessionID, map[string]any{"agent": agent, "ids": released, "why": StoppedWhy})
		return nil
	})
}

// claimedSince returns the slices agent claimed or renewed after the stop
// by the journal of session id. An entry is after the stop when the
// journal had not reached it as the hook began (its seq is past seen), or
// when its time is past stop (journal times have whole seconds: within
// the stop's second, seq decides).
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
