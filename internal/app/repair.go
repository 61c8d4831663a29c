package app

import (
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// RepairParams are the fix `repair` applies (at most one is set; none is
// the session's plain repair): Temp, Adopt, RemoveOrphan, Redact,
// RedactRemoved or Rebuild, the session fixes on Branch ("" for the
// run's --session or the current branch).
type RepairParams struct {
	Branch        string
	Temp          bool
	Adopt         string
	RemoveOrphan  string
	Redact        bool
	RedactRemoved bool
	Rebuild       bool
}

// RepairReport is what a repair says: the interrupted transaction it
// completed first (one line, nil when none was recorded), then what its
// fix reports on stdout (Out) and on stderr (Errs).
type RepairReport struct {
	Finished  []string
	Out, Errs []string
}

// Repair applies the fix p names (internal/repair), each journaled, and
// returns what each reports once it committed.
//
// An interrupted transaction comes first: when one is recorded, repair
// completes it (the state becomes exactly what the interrupted verb would
// have written). Plain repair stops there (run it again for the session's
// own fixes); --temp, --adopt and --remove-orphan go on with their fix.
// When the fix fails, the report still holds the Finished line.
func Repair(txn *Txn, w *World, p RepairParams) (RepairReport, error) {
	var rep RepairReport
	in, err := txn.Finish()
	if err != nil {
		return rep, err
	}
	if in != nil {
		rep.Finished = []string{repair.Finished(in)}
	}
	var out, errs []string
	report := func(fix func(tx *state.Tx) ([]string, error)) func(tx *state.Tx) error {
		return func(tx *state.Tx) (err error) { out, err = fix(tx); return err }
	}
	onSession := func(fix func(tx *state.Tx, s *registry.Session) ([]string, error)) error {
		return txn.OnSession(p.Branch, func(tx *state.Tx, s *registry.Session) (err error) { out, err = fix(tx, s); return err })
	}
	switch {
	case p.Temp:
		err = txn.Update(func(tx *state.Tx) error { out = txn.Fix().TempReport(tx); return nil })
	case p.Adopt != "":
		if err = repair.Adoptable(p.Adopt); err == nil {
			err = txn.Update(report(func(tx *state.Tx) ([]string, error) { return repair.AdoptReport(tx, p.Adopt) }))
		}
	case p.RemoveOrphan != "":
		out, errs, err = txn.Removal().RemoveOrphan(p.RemoveOrphan, txn.Fix)
	case p.Redact:
		err = onSession(repair.RedactReport)
	case p.RedactRemoved:
		err = txn.Update(report(func(tx *state.Tx) ([]string, error) { return txn.Fix().RedactRemovedReport(tx) }))
	case p.Rebuild:
		err = txn.UpdateRaw(func(tx *state.Tx) (err error) { out, errs, err = repair.RebuildReport(tx); return err })
	case in != nil:
		return rep, nil
	default:
		err = onSession(func(tx *state.Tx, s *registry.Session) ([]string, error) { return repair.Plain(tx, s, w.Now()) })
	}
	if err != nil {
		return rep, err
	}
	rep.Out, rep.Errs = out, errs
	return rep, nil
}
