package cli

import "github.com/orc-state/orc-state/internal/app"

// DecisionSetCmd is `decision set K V`.
type DecisionSetCmd struct {
	BranchFlag
	Key        string `arg:"" help:"Key."`
	Value      string `arg:"" help:"Value (one line)."`
	Provenance string `required:"" help:"How it was settled: ${provenances_help}." placeholder:"${provenances}"`
	Supersede  bool   `help:"Replace a settled value (the old one is kept in history)."`
}

// Run settles a key (app.DecisionSet): compare-and-set inside the lock,
// so of concurrent writers of one key exactly one wins.
func (c *DecisionSetCmd) Run(w *app.World, txn *app.Txn) error {
	return app.DecisionSet(w, txn, app.DecisionSetParams{Branch: c.Branch, Key: c.Key, Value: c.Value,
		Provenance: c.Provenance, Supersede: c.Supersede})
}
