package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// DecisionGetCmd is `decision get [K]`.
type DecisionGetCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Key (default: print the whole file)." predictor:"decision"`
	Echo bool   `help:"Print 'using settled decision: K=V (provenance)'."`
}

// Run prints one raw value, the echo line, or the whole file
// (app.DecisionGet).
func (c *DecisionGetCmd) Run(o *app.Streams, txn *app.Txn) error {
	shown, err := app.DecisionGet(txn, c.Branch, c.Key, c.Echo)
	if err != nil {
		return err
	}
	if c.Key == "" {
		_, err := o.Stdout.Write(shown.File)
		return err
	}
	fmt.Fprintln(o.Stdout, safetext.Escape(shown.Line))
	return nil
}
