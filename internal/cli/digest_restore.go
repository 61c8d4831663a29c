package cli

import (
	"github.com/orc-state/orc-state/checkpoint"
	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/removal"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// DigestRestoreCmd is `digest restore`.
type DigestRestoreCmd struct {
	BranchFlag
	At string `help:"The archive to restore from, by the time orc-state archive list shows; default: the newest digest archive." placeholder:"TIME"`
}

// Run writes back the Resume digest that a digest write (or an earlier
// restore) replaced, journaled; the digest it replaces is archived first,
// so running it again goes back.
func (c *DigestRestoreCmd) Run(e *Env) error {
	a, snap, err := e.pickArchive(c.Branch, c.At, archive.KindDigest)
	if err != nil {
		return err
	}
	text := archive.DigestOf(snap["files/"+state.CheckpointFile])
	if _, err := checkpoint.ParseDigest([]byte(text)); err != nil {
		return fault.Invalidf("%s holds no digest this orc-state can write back: %v; nothing was written", safetext.Escape(a.Name), err).
			WithHint("orc-state archive list shows the other archives; write the digest with orc-state digest write -")
	}
	return e.replaceDigest(c.Branch, []byte(text), map[string]string{"restored": a.Name, "sha256": journal.Sum([]byte(text))})
}

// pickArchive finds, before any lock, the archive of kind of the chosen
// session (made at TIME, else the newest) and reads it.
func (e *Env) pickArchive(explicit, at, kind string) (archive.Archive, archive.Snapshot, error) {
	if at != "" && !archive.IsTimeArg(at) {
		return archive.Archive{}, nil, fault.Usagef("--at %q is no archive time", at).WithHint("orc-state archive list shows the archives and their times")
	}
	d, _, s, err := e.Session(explicit)
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
	r, err := removal.Restorable(store, a)
	if err != nil {
		return archive.Archive{}, nil, err
	}
	if r.Entry == nil || r.Entry.SessionID != s.SessionID {
		return archive.Archive{}, nil, fault.Usagef("%s is no archive of %s; nothing was written", safetext.Escape(a.Name), safetext.Escape(s.SessionID))
	}
	return a, r.Snap, nil
}
