package removal

// digest write, and the restores of a replaced digest or ledger: what
// each checks before the lock, then the replacement (replace.go).

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/commitref"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/input"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// WriteDigest is digest write: text (the digest as read from stdin) is
// refused when it holds a credential, breaks a rule of
// checkpoint.ParseDigest or names a Suite sha git does not know as a
// commit (asked before any lock); else it replaces the Resume digest of
// the session explicit (or the run's) names, the one replaced archived
// first.
func (r Run) WriteDigest(explicit string, text []byte) error {
	if err := input.RefuseSecrets("the digest", text); err != nil {
		return err
	}
	dg, err := checkpoint.ParseDigest(text)
	if err != nil {
		return digestRefusal(err)
	}
	if dg.SuiteSHA != "" {
		d, err := r.Where.Dir()
		if err != nil {
			return err
		}
		if err := commitref.CheckSuite(d.Git, dg.SuiteSHA); err != nil {
			return err
		}
	}
	ch, err := r.Where.Choose(explicit)
	if err != nil {
		return err
	}
	return r.ReplaceDigest(ch, dg.Text, map[string]string{"suite": dg.SuiteVerdict + " @ " + dg.SuiteSHA, "sha256": journal.Sum(dg.Text)})
}

// digestRefusal words a refused digest: the fault, the lines over a cap
// when a cap is the fault, and the fix for that fault.
func digestRefusal(err error) error {
	f := fault.Usagef("%v", err)
	de, ok := err.(*checkpoint.DigestError)
	if !ok {
		return f
	}
	if de.Overflow != "" {
		f.Msg += "; over the cap: " + de.Overflow
	}
	return f.WithHint("%s", de.Fix)
}

// RestoreDigest is digest restore: the Resume digest a digest write (or
// an earlier restore) replaced, from the digest archive made at TIME at
// (else the newest), written back; the digest it replaces is archived
// first, so running it again goes back.
func (r Run) RestoreDigest(explicit, at string) error {
	a, snap, err := r.Pick(explicit, at, archive.KindDigest)
	if err != nil {
		return err
	}
	text := archive.DigestOf(snap["files/"+state.CheckpointFile])
	if _, err := checkpoint.ParseDigest([]byte(text)); err != nil {
		return fault.Invalidf("%s holds no digest this orc-state can write back: %v; nothing was written", safetext.Escape(a.Name), err).
			WithHint("orc-state archive list shows the other archives; write the digest with orc-state digest write -")
	}
	ch, err := r.Where.Choose(explicit)
	if err != nil {
		return err
	}
	return r.ReplaceDigest(ch, []byte(text), map[string]string{"restored": a.Name, "sha256": journal.Sum([]byte(text))})
}

// RestoreLedger is slice restore: the ledger a slice init (or an earlier
// restore) replaced, from the ledger archive made at TIME at (else the
// newest), written back; the ledger it replaces is archived first.
func (r Run) RestoreLedger(explicit, at string) error {
	a, snap, err := r.Pick(explicit, at, archive.KindLedger)
	if err != nil {
		return err
	}
	data := snap["files/"+state.LedgerFile]
	if _, err := slices.Parse(data); err != nil {
		return fault.Invalidf("%s holds no ledger this orc-state can write back: %v; nothing was written", safetext.Escape(a.Name), err).
			WithHint("orc-state archive list shows the other archives")
	}
	ch, err := r.Where.Choose(explicit)
	if err != nil {
		return err
	}
	return r.ReplaceLedger(ch, data, func([]byte) error { return nil }, map[string]any{"restored": a.Name, "sha256": journal.Sum(data)})
}

// Pick finds, before any lock, the archive of kind of the session
// explicit (or the run's) names, made at TIME at (else the newest), and
// reads it, validated whole.
func (r Run) Pick(explicit, at, kind string) (archive.Archive, archive.Snapshot, error) {
	if at != "" && !archive.IsTimeArg(at) {
		return archive.Archive{}, nil, fault.Usagef("--at %q is no archive time", at).WithHint("orc-state archive list shows the archives and their times")
	}
	d, _, s, err := r.Where.Session(explicit)
	if err != nil {
		return archive.Archive{}, nil, err
	}
	store := archive.Open(d)
	all, err := store.List(s.SessionID)
	if err != nil {
		return archive.Archive{}, nil, fault.Wrap(fault.Invalid, err, "cannot list the archives").WithHint("run git status to see why git cannot answer")
	}
	a, ok := archive.Pick(all, s.SessionID, at, kind)
	if !ok {
		return archive.Archive{}, nil, fault.NotFoundf("no %s archive of %s", kind, safetext.Escape(s.SessionID)).
			WithHint("orc-state archive list --session=%s shows its archives", safetext.Quote(s.SessionID))
	}
	rs, err := Restorable(store, a)
	if err != nil {
		return archive.Archive{}, nil, err
	}
	if rs.Entry == nil || rs.Entry.SessionID != s.SessionID {
		return archive.Archive{}, nil, fault.Usagef("%s is no archive of %s; nothing was written", safetext.Escape(a.Name), safetext.Escape(s.SessionID))
	}
	return a, rs.Snap, nil
}
