package repair

// What each of repair's fixes reports, as the lines repair prints: the
// CLI runs the fix in its transaction and prints these after it
// committed.

import (
	"fmt"
	"slices"
	"time"

	"github.com/orc-state/orc-state/internal/hexid"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// Finished is the line for an interrupted transaction that repair
// completed, or whose torn record it removed.
func Finished(in *state.Intent) string {
	if in.Torn {
		return "removed the record of " + safetext.Escape(in.Describe())
	}
	return "completed the interrupted " + safetext.Escape(in.Describe())
}

// Plain is plain repair of session s inside tx, judged at now: when
// verify finds what Fixes fixes, the mirror is regenerated and the journal
// re-baselined; else nothing is written, and a stored credential is named
// with the command that removes it.
func Plain(tx *state.Tx, s *registry.Session, now time.Time) ([]string, error) {
	findings, err := verify.Session(tx.Dir(), tx.Reg, s, now)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(findings, func(f verify.Finding) bool { return Fixes(f.Code) }) {
		out := []string{"nothing to repair in " + safetext.Escape(s.SessionID)}
		if len(verify.StoredSecrets(tx.Dir(), s)) > 0 {
			out = append(out, safetext.Escape("it holds a stored credential: orc-state repair --redact --session="+safetext.Quote(s.SessionID)+" removes it"))
		}
		return out, nil // and nothing written
	}
	if err := tx.Mirror(s); err != nil {
		return nil, err
	}
	tx.Touch(s.SessionID, map[string]string{"fix": "mirror"})
	return []string{"repaired " + safetext.Escape(s.SessionID) + ": checkpoint mirror regenerated, journal re-baselined"}, nil
}

// TempReport is Temp, a line for each file removed.
func (r Run) TempReport(tx *state.Tx) []string {
	var out []string
	for _, f := range r.Temp(tx) {
		out = append(out, "removed "+safetext.Escape(f))
	}
	return out
}

// AdoptReport is Adopt, and its line.
func AdoptReport(tx *state.Tx, name string) ([]string, error) {
	s, err := Adopt(tx, name)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("adopted %s (branch %s) from its checkpoint", safetext.Escape(name), safetext.Escape(s.GitBranch))}, nil
}

// RedactReport is Redact, a line for each credential removed and one for
// the journal; a session that holds none is left alone: nothing is
// written.
func RedactReport(tx *state.Tx, s *registry.Session) ([]string, error) {
	plan, err := Redact(tx, s)
	if err != nil {
		return nil, err
	}
	if len(plan.Hits) == 0 {
		return []string{"no credential stored in " + s.SessionID}, nil // and nothing written
	}
	var out []string
	for _, h := range plan.Hits {
		if h.Name {
			out = append(out, fmt.Sprintf("redacted %s: renamed to %s", safetext.Escape(h.String()), safetext.Escape(h.File)))
		} else {
			out = append(out, "redacted "+safetext.Escape(h.String()))
		}
	}
	last := ""
	if plan.Journal != nil {
		last = fmt.Sprintf("re-chained %s over the redacted lines; ", journal.FileName)
	}
	if plan.OldTip == "" {
		last += "the session had no journal; the new line starts one"
	} else {
		last += "the new journal line records the old tip " + hexid.Short(plan.OldTip)
	}
	return append(out, last), nil
}

// RedactRemovedReport is RedactRemoved, a line for each line of
// removed.jsonl redacted.
func (r Run) RedactRemovedReport(tx *state.Tx) ([]string, error) {
	hits, err := r.RedactRemoved(tx)
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		return []string{"no credential stored in " + state.RemovedFile}, nil
	}
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("redacted %s line %d (%s)", state.RemovedFile, h.Line, h.Kind))
	}
	return out, nil
}

// RebuildReport is Rebuild, its lines for stdout and, when the damaged
// orc.json was kept aside, the line for stderr that says where.
func RebuildReport(tx *state.Tx) (out, errs []string, err error) {
	out, kept, err := Rebuild(tx)
	if err != nil || kept == "" {
		return out, nil, err
	}
	return out, []string{fmt.Sprintf("the damaged orc.json is kept as %s in the state dir", kept)}, nil
}
