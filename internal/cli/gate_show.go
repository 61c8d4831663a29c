package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/registry"
)

// GateShowCmd is `gate show`.
type GateShowCmd struct {
	BranchFlag
	JSON bool `name:"json" help:"JSON."`
}

// Run prints the recorded verdicts.
func (c *GateShowCmd) Run(e *Env) error {
	_, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	g := s.Gate
	if g == nil {
		g = &registry.Gate{Verdicts: []registry.Verdict{}, Retries: map[string]int{}}
	}
	if c.JSON {
		return printJSON(e, g, "  ")
	}
	for _, v := range g.Verdicts {
		fmt.Fprintf(e.Stdout, "%d\t%s\t%s\t%s\t%s\n", v.Phase, v.Verdict, dash(v.Reviewer), v.At, dash(v.Note))
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
