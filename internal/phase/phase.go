// Package phase owns moving a session through its phases: the label rule
// every move follows (Move), and the gate's verdicts (Record: approved
// advances the phase, to done after the last; changes requested counts a
// retry against the session's decided budget and, past it, pauses the
// session), mirrored into the checkpoint's "## Gate" section. Record works
// inside the caller's transaction; the verbs check the flags and print.
package phase

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Move moves s to phase p with label (docs/protocol.md §5): a label
// given replaces the old one; a phase change without one clears it.
// Every verb that moves the phase (phase set, gate record) goes through
// here.
func Move(s *registry.Session, p registry.Phase, label string) {
	switch {
	case label != "":
		s.PhaseLabel = registry.Str(label)
	case p != s.Phase:
		s.PhaseLabel = nil
	}
	s.Phase = p
}

// gateHeading is the checkpoint section that mirrors the entry's gate.
const gateHeading = "## Gate"

// DefaultMaxRetries is the retry budget of a phase when the decision
// (maxRetriesPerPhase) is not settled.
const DefaultMaxRetries = 2

// Outcome is what a verdict did: the retries of its phase so far and the
// budget, and whether it passed the budget (the session is then paused).
type Outcome struct {
	Retries, Budget int
	Escalated       bool
}

// Record records verdict v on s's current phase inside tx and rewrites
// the checkpoint's gate section; the caller saves s (Save journals it).
func Record(tx *state.Tx, s *registry.Session, v registry.Verdict) (Outcome, error) {
	var o Outcome
	if s.Phase.Done {
		return o, fault.Usagef("the session is done; there is no phase to gate")
	}
	if v.Phase != s.Phase.N {
		return o, fault.Usagef("verdict for phase %d, but the session is at phase %d", v.Phase, s.Phase.N).
			WithHint("record the verdict of the current phase (%d)", s.Phase.N)
	}
	data, err := tx.Read(s.SessionID, state.DecisionsFile)
	if err != nil {
		return o, err
	}
	dec, err := decisions.Parse(data)
	if err != nil {
		return o, err
	}
	if o.Budget, err = dec.Count(decisions.MaxRetriesPerPhase, DefaultMaxRetries); err != nil {
		return o, err // a budget that is no count is not replaced by the default
	}
	if s.Gate == nil {
		s.Gate = &registry.Gate{}
	}
	if s.Gate.Retries == nil {
		s.Gate.Retries = map[string]int{}
	}
	s.Gate.Verdicts = append(s.Gate.Verdicts, v)
	key := strconv.Itoa(v.Phase)
	if v.Verdict == "approved" {
		next := registry.Phase{N: v.Phase + 1}
		if v.Phase >= s.TotalPhases {
			next = registry.Phase{Done: true}
		}
		Move(s, next, "") // the label named the phase just approved
	} else {
		s.Gate.Retries[key]++
		o.Retries = s.Gate.Retries[key]
		if o.Retries > o.Budget {
			o.Escalated = true
			s.Status = "paused"
		}
	}
	body, err := tx.Body(s.SessionID)
	if err != nil {
		return o, err
	}
	return o, tx.WriteCheckpoint(s, checkpoint.SetSection(body, gateHeading, render(s.Gate, o.Budget)))
}

// render mirrors the gate into the checkpoint: the last verdict of each
// of the five most recent phases, with its retry count.
func render(g *registry.Gate, budget int) []byte {
	last := map[int]registry.Verdict{}
	for _, v := range g.Verdicts {
		last[v.Phase] = v
	}
	phases := make([]int, 0, len(last))
	for p := range last {
		phases = append(phases, p)
	}
	sort.Ints(phases)
	if len(phases) > 5 {
		phases = phases[len(phases)-5:]
	}
	var b strings.Builder
	for _, p := range phases {
		v := last[p]
		fmt.Fprintf(&b, "- Phase %d: %s (retries %d/%d)", p, v.Verdict, g.Retries[strconv.Itoa(p)], budget)
		if v.Reviewer != "" {
			fmt.Fprintf(&b, " by %s", v.Reviewer)
		}
		fmt.Fprintf(&b, " at %s\n", v.At)
	}
	return []byte(b.String())
}
