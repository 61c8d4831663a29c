package phase

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Shown is what gate show prints of a session: its recorded verdicts
// and retries (an empty gate when none was recorded), and the retry
// budget they are counted against.
type Shown struct {
	*registry.Gate
	Budget int `json:"budget"`
}

// Show reads, without the lock, the gate of s as d holds it and the
// budget its decisions set (DefaultMaxRetries without a decision); a
// decisions file or budget that is not valid is the error.
func Show(d *state.Dir, s *registry.Session) (Shown, error) {
	g := s.Gate
	if g == nil {
		g = &registry.Gate{Verdicts: []registry.Verdict{}, Retries: map[string]int{}}
	}
	budget := DefaultMaxRetries
	if data, err := d.ReadFile(s.SessionID, state.DecisionsFile); err != nil {
		return Shown{}, err
	} else if data != nil {
		dec, err := decisions.Parse(data)
		if err != nil {
			return Shown{}, err
		}
		if budget, err = dec.Count(decisions.MaxRetriesPerPhase, DefaultMaxRetries); err != nil {
			return Shown{}, err
		}
	}
	return Shown{g, budget}, nil
}

// Lines are gate show's TSV lines: a verdict per line (phase, verdict,
// reviewer, at, note; "-" for what is empty), then the retries of each
// phase that has some, by phase, then the budget.
func (s Shown) Lines() []string {
	var out []string
	for _, v := range s.Verdicts {
		out = append(out, fmt.Sprintf("%d\t%s\t%s\t%s\t%s", v.Phase, safetext.Escape(v.Verdict), safetext.Escape(dash(v.Reviewer)), safetext.Escape(v.At), safetext.Escape(dash(v.Note))))
	}
	phases := make([]int, 0, len(s.Retries))
	for p := range s.Retries {
		if n, err := strconv.Atoi(p); err == nil {
			phases = append(phases, n)
		}
	}
	sort.Ints(phases)
	for _, p := range phases {
		out = append(out, fmt.Sprintf("retries\t%d\t%d", p, s.Retries[strconv.Itoa(p)]))
	}
	return append(out, fmt.Sprintf("budget\t%d", s.Budget))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
