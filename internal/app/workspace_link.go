package app

import (
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/workspace"
)

// WorkspaceLink writes the back-pointer of the workspace session for
// branch ("" for the one selected here) into each member repository that
// has a path (workspace.Run.Link), calling report as each member is done:
// with the link file written, or link "" for a member without a path
// (nothing was written). The members linked before a refusal stay linked.
func WorkspaceLink(w *World, txn *Txn, branch string, report func(name, link string)) error {
	d, _, s, err := txn.where.Session(branch)
	if err != nil {
		return err
	}
	r := workspace.Run{Where: *txn.where, Environ: w.Environ(), Clock: w.StampClock(),
		Options: func() (state.Options, error) { return txn.Options(state.Options{}) }}
	return r.Link(d, s, func(m workspace.Member) { report(m.Name, m.Link) })
}
