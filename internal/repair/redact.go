package repair

import (
	"path/filepath"
	"sort"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/redact"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Redact removes the credentials an older orc-state stored in session s
// (docs/protocol.md §4, the one exception to append-only): every file
// holding one is rewritten with a marker in the credential's place, a file
// named after one is renamed, the journal is re-chained over its edited
// lines, and one journal line records the old tip and what was redacted
// (file, line, kind; never the credential). All of it is tx, so it passes
// the credential guard like any write and lands whole or not at all. It
// returns the plan carried out; one without Hits wrote nothing.
func Redact(tx *state.Tx, s *registry.Session) (*redact.Plan, error) {
	id := s.SessionID
	files, err := redact.Read(tx.Dir().FilesDir(id))
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read the files of %s", id)
	}
	plan, err := redact.Session(*s, files)
	if err != nil {
		return nil, fault.Invalidf("cannot redact %s: %v", id, err).WithHint("orc-state doctor")
	}
	if len(plan.Hits) == 0 {
		return plan, nil // and nothing written
	}
	tx.NoteOriginal(s)
	if plan.Entry != nil {
		*s = *plan.Entry
		tx.RegistryChanged()
	}
	for _, name := range sortedKeys(plan.Writes) {
		tx.Write(id, name, plan.Writes[name])
	}
	if plan.Journal != nil {
		tx.RewriteJournal(id, plan.Journal)
	}
	for _, name := range plan.Removes {
		tx.RemoveFile(filepath.Join(id, "files", filepath.FromSlash(name)))
	}
	tx.Touch(id, plan.Args())
	return plan, nil
}

// RedactRemoved removes the credentials an older orc-state stored in
// removed.jsonl, the record of removed sessions (their final entries): each
// place becomes [redacted <kind>], the lines stay valid JSON, and a
// tombstone records what was redacted (line, kind; never the credential).
// Like Redact it is the one exception to append-only; it returns what it
// redacted, and when nothing is stored, nothing is written.
func (r Run) RedactRemoved(tx *state.Tx) ([]secrets.Hit, error) {
	data, err := tx.Dir().ReadStateFile(state.RemovedFile)
	if err != nil {
		return nil, err
	}
	redacted, hits := secrets.RedactJSON(data)
	if len(hits) == 0 {
		return nil, nil
	}
	places := make([]map[string]any, len(hits))
	for i, h := range hits {
		places[i] = map[string]any{"line": h.Line, "kind": h.Kind}
	}
	tx.WriteState(state.RemovedFile, redacted)
	tx.Tombstone(r.Tombstone(map[string]any{"redacted": places}))
	return hits, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
