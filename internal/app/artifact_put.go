package app

import (
	"github.com/orc-state/orc-state/internal/artifact"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// ArtifactPut stores stdin as files/NAME of the session (branch, "" for
// the current branch's), under the lock, stamped with HEAD: a JSON object
// with headSha and generatedAt added, or text as given with its stamp in
// the journal line (docs/protocol.md §12). It prints nothing; it returns
// the refusal (a name not allowed, input that is not the artifact's kind).
func ArtifactPut(o *Streams, w *World, sd *StateDir, txn *Txn, branch, name string) error {
	if err := artifact.CheckName(name, true); err != nil {
		return err
	}
	data, err := o.ReadStdin()
	if err != nil {
		return err
	}
	obj, err := artifact.Parse(name, data)
	if err != nil {
		return err
	}
	head, err := HeadSHA(sd)
	if err != nil {
		return err
	}
	stored, stamp, err := artifact.Stamped(name, data, obj, head, w.Stamp())
	if err != nil {
		return err
	}
	return txn.OnSession(branch, func(tx *state.Tx, s *registry.Session) error {
		return artifact.Store(tx, s.SessionID, name, stored, stamp)
	})
}
