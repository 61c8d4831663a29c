package app

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/phase"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// GateRecordParams are gate record's arguments, journaled as they are
// (field names and order are the journal's args): the session's --branch
// and --session, the phase the verdict is about, the verdict, who gave it
// and a one-line note.
type GateRecordParams struct {
	Branch   string
	Session  string
	Phase    int
	Verdict  string
	Reviewer string
	Note     string
}

// GateRecord records a verdict on the current phase of the session for
// p.Branch (phase.Record): approved advances it (to done after the last),
// changes_requested counts a retry, and past the budget the session is
// paused and the error is an escalation (exit 5) whose hint resumes it.
func GateRecord(w *World, txn *Txn, p GateRecordParams) error {
	var out phase.Outcome
	var id string // the session, for the hint
	err := txn.Mutate(p.Branch, p, func(tx *state.Tx, s *registry.Session) (err error) {
		id = s.SessionID
		out, err = phase.Record(tx, s, registry.Verdict{Phase: p.Phase, Verdict: p.Verdict,
			Reviewer: p.Reviewer, Note: p.Note, At: w.Stamp()})
		return err
	})
	if err != nil {
		return err
	}
	if out.Escalated {
		return &fault.Error{Code: fault.Escalation,
			Msg:  fmt.Sprintf("phase %d had changes requested %d times (budget %d); the session is paused", p.Phase, out.Retries, out.Budget),
			Hint: "a human decides how to proceed; resume with orc-state status set in_progress --session=" + safetext.Quote(id)}
	}
	return nil
}
