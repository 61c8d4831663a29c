package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
)

// DecisionGetCmd is `decision get [K]`.
type DecisionGetCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Key (default: print the whole file)." predictor:"decision"`
	Echo bool   `help:"Print 'using settled decision: K=V (provenance)'."`
}

// Run prints one raw value, the echo line, or the whole file.
func (c *DecisionGetCmd) Run(o *app.Streams, where *selection.Where) error {
	d, _, s, err := where.Session(c.Branch)
	if err != nil {
		return err
	}
	data, err := d.ReadFile(s.SessionID, state.DecisionsFile)
	if err != nil {
		return err
	}
	if data == nil {
		return fault.NotFoundf("session %s has no settled decisions", s.SessionID)
	}
	f, err := decisions.Parse(data)
	if err != nil {
		return err
	}
	if c.Key == "" {
		_, err := o.Stdout.Write(f.Marshal())
		return err
	}
	dec, ok := f.Get(c.Key)
	if !ok {
		return fault.NotFoundf("%q is not settled", c.Key)
	}
	if c.Echo {
		fmt.Fprintln(o.Stdout, safetext.Escape(decisions.Echo(c.Key, dec)))
		return nil
	}
	fmt.Fprintln(o.Stdout, safetext.Escape(dec.Value))
	return nil
}
