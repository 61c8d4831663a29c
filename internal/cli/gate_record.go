package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// GateRecordCmd is `gate record PHASE --verdict V`.
type GateRecordCmd struct {
	BranchFlag
	Phase    int    `arg:"" help:"The phase the verdict is about (the current one)."`
	Verdict  string `required:"" enum:"${verdicts}" help:"${verdicts_help}."`
	Reviewer string `help:"Who gave the verdict." placeholder:"R"`
	Note     string `help:"One-line note." placeholder:"N"`
}

// gateHeading is the checkpoint section that mirrors the entry's gate.
const gateHeading = "## Gate"

// defaultMaxRetriesPerPhase applies when the decision is not settled.
const defaultMaxRetriesPerPhase = 2

// Run records a verdict on the current phase: approved advances it (to
// done after the last), changes_requested counts a retry, and past the
// budget pauses the session and exits 5.
func (c *GateRecordCmd) Run(e *Env) error {
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := refuseSecrets(name, []byte(v)); err != nil {
			return err
		}
	}
	var escalated bool
	var retries, budget int
	var id string // the session, for the hint
	err := e.Mutate(c.Branch, c, func(tx *state.Tx, s *registry.Session) error {
		id = s.SessionID
		if s.Phase.Done {
			return fault.Usagef("the session is done; there is no phase to gate")
		}
		if c.Phase != s.Phase.N {
			return fault.Usagef("verdict for phase %d, but the session is at phase %d", c.Phase, s.Phase.N).
				WithHint("record the verdict of the current phase (%d)", s.Phase.N)
		}
		dec, err := readDecisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		if budget, err = dec.Count(decisions.MaxRetriesPerPhase, defaultMaxRetriesPerPhase); err != nil {
			return err // a budget that is no count is not replaced by the default
		}
		if s.Gate == nil {
			s.Gate = &registry.Gate{}
		}
		if s.Gate.Retries == nil {
			s.Gate.Retries = map[string]int{}
		}
		s.Gate.Verdicts = append(s.Gate.Verdicts, registry.Verdict{Phase: c.Phase, Verdict: c.Verdict,
			Reviewer: c.Reviewer, Note: c.Note, At: e.stamp()})
		key := strconv.Itoa(c.Phase)
		if c.Verdict == "approved" {
			next := registry.Phase{N: c.Phase + 1}
			if c.Phase >= s.TotalPhases {
				next = registry.Phase{Done: true}
			}
			setPhase(s, next, "") // the label named the phase just approved

		} else {
			s.Gate.Retries[key]++
			retries = s.Gate.Retries[key]
			if retries > budget {
				escalated = true
				s.Status = "paused"
			}
		}
		body, err := tx.Body(s.SessionID)
		if err != nil {
			return err
		}
		return tx.WriteCheckpoint(s, checkpoint.SetSection(body, gateHeading, renderGate(s.Gate, budget)))
	})
	if err != nil {
		return err
	}
	if escalated {
		return &fault.Error{Code: fault.Escalation,
			Msg:  fmt.Sprintf("phase %d had changes requested %d times (budget %d); the session is paused", c.Phase, retries, budget),
			Hint: "a human decides how to proceed; resume with orc-state status set in_progress --session=" + safetext.Quote(id)}
	}
	return nil
}

// renderGate mirrors the gate into the checkpoint: the last verdict of each
// of the five most recent phases, with its retry count.
func renderGate(g *registry.Gate, budget int) []byte {
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
