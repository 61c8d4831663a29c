package cli

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/redact"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// redact removes the credentials an older orc-state stored in the session
// (docs/protocol.md §4, the one exception to append-only): every file holding one
// is rewritten with a marker in the credential's place, a file named after
// one is renamed, the journal is re-chained over its edited lines, and one
// journal line records the old tip and what was redacted (file, line,
// kind; never the credential). All of it is one transaction, so it passes
// the credential guard like any write and lands whole or not at all. A
// session that holds none is left alone: nothing is written.
func (c *RepairCmd) redact(e *Env) error {
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		id := s.SessionID
		files, err := redact.Read(tx.Dir().FilesDir(id))
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot read the files of %s", id)
		}
		plan, err := redact.Session(*s, files)
		if err != nil {
			return fault.Invalidf("cannot redact %s: %v", id, err).WithHint("orc-state doctor")
		}
		if len(plan.Hits) == 0 {
			fmt.Fprintf(e.Stdout, "no credential stored in %s\n", id)
			return nil // and nothing written
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
// removed.jsonl, the record of removed sessions (their final entries): each
// place becomes [redacted <kind>], the lines stay valid JSON, and a
// tombstone records what was redacted (line, kind; never the credential).
// Like repair --redact it is the one exception to append-only, in one
// transaction; when nothing is stored, nothing is written.
func (c *RepairCmd) redactRemoved(e *Env) error {
	var hits []secrets.Hit
	err := e.Update(func(tx *state.Tx) error {
		data, err := tx.Dir().ReadStateFile(state.RemovedFile)
		if err != nil {
			return err
		}
		var redacted []byte
		if redacted, hits = secrets.RedactJSON(data); len(hits) == 0 {
			return nil
		}
		places := make([]map[string]any, len(hits))
		for i, h := range hits {
			places[i] = map[string]any{"line": h.Line, "kind": h.Kind}
		}
		tx.WriteState(state.RemovedFile, redacted)
		tx.Tombstone(e.tombstone(map[string]any{"redacted": places}))
		return nil
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
