package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// redact removes the credentials an older orc-state stored in the session
// (repair.Redact), in one transaction, and says what it did; a session
// that holds none is left alone: nothing is written.
func (c *RepairCmd) redact(e *Env) error {
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		plan, err := repair.Redact(tx, s)
		if err != nil {
			return err
		}
		if len(plan.Hits) == 0 {
			fmt.Fprintf(e.Stdout, "no credential stored in %s\n", s.SessionID)
			return nil // and nothing written
		}
		for _, h := range plan.Hits {
			if h.Name {
				fmt.Fprintf(e.Stdout, "redacted %s: renamed to %s\n", safetext.Escape(h.String()), safetext.Escape(h.File))
			} else {
				fmt.Fprintf(e.Stdout, "redacted %s\n", safetext.Escape(h.String()))
			}
		}
		if plan.Journal != nil {
			fmt.Fprintf(e.Stdout, "re-chained %s over the redacted lines; ", journal.FileName)
		}
		if plan.OldTip == "" {
			fmt.Fprintln(e.Stdout, "the session had no journal; the new line starts one")
		} else {
			fmt.Fprintf(e.Stdout, "the new journal line records the old tip %s\n", short(plan.OldTip))
		}
		return nil
	})
}

// redactRemoved removes the credentials an older orc-state stored in
// removed.jsonl (repair.Run.RedactRemoved), and says what it did.
func (c *RepairCmd) redactRemoved(e *Env) error {
	var hits []secrets.Hit
	err := e.Update(func(tx *state.Tx) (err error) {
		hits, err = e.fix().RedactRemoved(tx)
		return err
	})
	if err != nil {
		return err
	}
	if len(hits) == 0 {
		fmt.Fprintf(e.Stdout, "no credential stored in %s\n", state.RemovedFile)
		return nil
	}
	for _, h := range hits {
		fmt.Fprintf(e.Stdout, "redacted %s line %d (%s)\n", state.RemovedFile, h.Line, h.Kind)
	}
	return nil
}
