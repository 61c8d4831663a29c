package app

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// ProgressAppend appends a dated section, headed title (Progress when
// "") and the run's recorded time, holding text to the progress.md of
// the session for branch (the current branch when ""); earlier bytes are
// never rewritten. The journal keeps the title and the text's sha256, not
// the text. text was checked by the command line (not empty, no
// credential).
func ProgressAppend(w *World, txn *Txn, branch, title string, text []byte) error {
	if title == "" {
		title = "Progress"
	}
	section := fmt.Sprintf("\n## %s — %s\n\n%s\n", title, w.Stamp(), text)
	return txn.OnSession(branch, func(tx *state.Tx, s *registry.Session) error {
		tx.Append(s.SessionID, state.ProgressFile, []byte(section))
		tx.Touch(s.SessionID, map[string]string{"title": title, "sha256": journal.Sum(text)})
		return nil
	})
}
