package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// GetCmd is `get`.
type GetCmd struct {
	BranchFlag
	Key   string `arg:"" optional:"" help:"Branch or sessionId (default: --branch, else the current branch)." predictor:"session"`
	Field string `help:"Print only this top-level field, raw." placeholder:"F"`
}

// Run prints an entry, or one raw field (app.Get).
func (c *GetCmd) Run(o *app.Streams, txn *app.Txn) error {
	got, err := app.Get(txn, c.keyOr(c.Key), c.Field)
	switch {
	case err != nil:
		return err
	case c.Field == "":
		return printJSON(o.Stdout, got.Session, "  ")
	case got.Field == nil:
		return nil // an optional field that is absent prints nothing
	}
	return printRaw(o, got.Field)
}

// printRaw prints a JSON value raw: strings unquoted, null and false as
// nothing at all (like the original), anything else as compact JSON.
func printRaw(o *app.Streams, raw json.RawMessage) error {
	switch string(raw) {
	case "null", "false":
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		fmt.Fprintln(o.Stdout, safetext.Escape(s))
		return nil
	}
	fmt.Fprintln(o.Stdout, string(raw))
	return nil
}
