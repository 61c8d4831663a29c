package cli

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// Run prints the recorded verdicts, the retry count of each phase that
// has one, and the budget they are counted against.
func (c *GateShowCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	g := s.Gate
	if g == nil {
		g = &registry.Gate{Verdicts: []registry.Verdict{}, Retries: map[string]int{}}
	}
	budget := phase.DefaultMaxRetries
	if data, err := d.ReadFile(s.SessionID, state.DecisionsFile); err != nil {
		return err
	} else if data != nil {
		dec, err := decisions.Parse(data)
		if err != nil {
			return err
		}
		if budget, err = dec.Count(decisions.MaxRetriesPerPhase, phase.DefaultMaxRetries); err != nil {
			return err
		}
	}
	if c.JSON {
		return printJSON(e, struct {
			*registry.Gate
			Budget int `json:"budget"`
		}{g, budget}, "  ")
	}
	for _, v := range g.Verdicts {
		fmt.Fprintf(e.Stdout, "%d\t%s\t%s\t%s\t%s\n", v.Phase, safetext.Escape(v.Verdict), safetext.Escape(dash(v.Reviewer)), safetext.Escape(v.At), safetext.Escape(dash(v.Note)))
	}
	phases := make([]int, 0, len(g.Retries))
	for p := range g.Retries {
		if n, err := strconv.Atoi(p); err == nil {
			phases = append(phases, n)
		}
	}
	sort.Ints(phases)
	for _, p := range phases {
		fmt.Fprintf(e.Stdout, "retries\t%d\t%d\n", p, g.Retries[strconv.Itoa(p)])
	}
	fmt.Fprintf(e.Stdout, "budget\t%d\n", budget)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
