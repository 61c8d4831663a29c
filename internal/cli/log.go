package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// LogCmd is `log`.
type LogCmd struct {
	BranchFlag
	HeaderFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId." predictor:"session"`
	JSON bool   `name:"json" help:"Print the journal lines as JSON."`
}

// Run prints the session's journal (app.Log), and each problem found
// reading it as a warning.
func (c *LogCmd) Run(o *app.Streams, txn *app.Txn) error {
	shown, err := app.Log(txn, c.keyOr(c.Key))
	if err != nil {
		return err
	}
	printHeader(o.Stdout, c.Header && !c.JSON, "seq", "at", "actor", "verb", "args")
	for _, en := range shown.Entries {
		if c.JSON {
			line, _ := json.Marshal(en)
			fmt.Fprintln(o.Stdout, string(line))
			continue
		}
		args := string(en.Args)
		if args == "" {
			args = "-"
		}
		fmt.Fprintf(o.Stdout, "%d\t%s\t%s\t%s\t%s\n", en.Seq, safetext.Escape(en.At), safetext.Escape(en.Actor), safetext.Escape(en.Verb), safetext.Escape(args))
	}
	for _, p := range shown.Problems {
		o.Warn("%s: %s", p.Code, p.Message)
	}
	return nil
}
