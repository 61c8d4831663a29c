package refsync

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/gitx"
)

// refFixes are the local ref updates a verb makes once its work is done,
// all in one transaction, and the notes for base refs it sets because they
// lagged.
type refFixes struct {
	updates []gitx.RefUpdate
	notes   []string
}

func (f *refFixes) add(u gitx.RefUpdate) { f.updates = append(f.updates, u) }

// base sets the session's base ref to commit (from the value surveyed, so
// a ref another process moved meanwhile is left alone), noting a repair
// when the ref lagged behind what this machine already had.
func (f *refFixes) base(ss *session, commit string) {
	if commit == "" || commit == ss.base {
		return
	}
	f.add(gitx.RefUpdate{Name: BaseRef(ss.id), New: commit, Old: ss.base, Check: true})
	if ss.lags() {
		f.notes = append(f.notes, lagNote(ss))
	}
}

// lagNote says, in one line, that a session's base ref lagged and is set.
func lagNote(ss *session) string {
	return fmt.Sprintf("note: the base of %s was %s, behind %s that this machine already had (an earlier sync stopped before it moved the ref); it is set now",
		ss.id, short(ss.base), short(ss.effBase))
}

// applyFixes moves the refs and returns what to tell the user: a warning
// when they could not be moved (the next sync sets them: a local state
// equal to, containing or behind the remote's is never diverged, whatever
// the base says), else the notes of the repaired bases.
func (s *Syncer) applyFixes(f refFixes) []string {
	if err := s.moveRefs(f.updates); err != nil {
		return []string{"warning: the local sync refs were not moved (" + err.Error() + "); the next sync sets them"}
	}
	return f.notes
}
