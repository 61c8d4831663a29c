package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
)

// GateRecordCmd is `gate record PHASE --verdict V`.
type GateRecordCmd struct {
	BranchFlag
	Phase    int    `arg:"" help:"The phase the verdict is about (the current one)."`
	Verdict  string `required:"" enum:"${verdicts}" help:"${verdicts_help}."`
	Reviewer string `help:"Who gave the verdict." placeholder:"R"`
	Note     string `help:"One-line note." placeholder:"N"`
}

// Run records a verdict on the current phase: approved advances it (to
// done after the last), changes_requested counts a retry, and past the
// budget pauses the session and exits 5.
func (c *GateRecordCmd) Run(w *app.World, txn *app.Txn) error {
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := textin.SingleLine(name, v); err != nil {
			return fault.Usagef("%v", err)
		}
	}
	for name, v := range map[string]string{"--reviewer": c.Reviewer, "--note": c.Note} {
		if err := input.RefuseSecrets(name, []byte(v)); err != nil {
			return err
		}
	}
	var out phase.Outcome
	var id string // the session, for the hint
	err := txn.Mutate(c.Branch, c, func(tx *state.Tx, s *registry.Session) (err error) {
		id = s.SessionID
		out, err = phase.Record(tx, s, registry.Verdict{Phase: c.Phase, Verdict: c.Verdict,
			Reviewer: c.Reviewer, Note: c.Note, At: w.Stamp()})
		return err
	})
	if err != nil {
		return err
	}
	if out.Escalated {
		return &fault.Error{Code: fault.Escalation,
			Msg:  fmt.Sprintf("phase %d had changes requested %d times (budget %d); the session is paused", c.Phase, out.Retries, out.Budget),
			Hint: "a human decides how to proceed; resume with orc-state status set in_progress --session=" + safetext.Quote(id)}
	}
	return nil
}
