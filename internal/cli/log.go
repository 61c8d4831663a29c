package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
)

// LogCmd is `log`.
type LogCmd struct {
	BranchFlag
	HeaderFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId." predictor:"session"`
	JSON bool   `name:"json" help:"Print the journal lines as JSON."`
}

// Run prints the session's journal.
func (c *LogCmd) Run(o *app.Streams, where *selection.Where) error {
	key := c.keyOr(c.Key)
	d, _, s, err := where.Session(key)
	if err != nil {
		return err
	}
	entries, problems, err := journal.Read(d.File(s.SessionID, journal.FileName))
	if err != nil {
		return err
	}
	printHeader(o.Stdout, c.Header && !c.JSON, "seq", "at", "actor", "verb", "args")
	for _, en := range entries {
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
	for _, p := range problems {
		o.Warn("%s: %s", p.Code, p.Message)
	}
	return nil
}
