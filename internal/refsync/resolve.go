package refsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// The sides sync resolve can keep.
const (
	KeepLocal  = "local"
	KeepRemote = "remote"
)

// Resolve ends a divergence of one session by keeping one side, losing
// nothing: the other side's commit is kept under
// refs/orc/archive/<sessionId>/<time> first, then
//
//   - keep remote: the remote's commit is imported (as pull would), and the
//     choice is recorded in the sync log; this machine is then in sync;
//   - keep local: the choice is journaled in the session (a change, which
//     travels with it), and the remote's commit becomes the base; this
//     machine is then ahead, and the next push publishes it.
//
// A session that is not diverged is left alone: exit 0 when it already
// agrees with the choice, else exit 2 naming its state.
//
// Keeping local discards the remote's changes since the common base (the
// other machine is told so on its next pull): without force it only lists
// them and refuses (exit 2), changing nothing.
func (s *Syncer) Resolve(key, keep string, force bool) (Result, []string, error) {
	if keep != KeepLocal && keep != KeepRemote {
		return Result{}, nil, fault.Usagef("--keep %q: pass local or remote", keep)
	}
	unlock, err := s.lock()
	if err != nil {
		return Result{}, nil, err
	}
	defer unlock()
	if err := s.fetch(); err != nil {
		return Result{}, nil, err
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return Result{}, nil, err
	}
	id, _ := Select(reg, key)
	rs, err := s.refs()
	if err != nil {
		return Result{}, nil, err
	}
	ss, err := s.surveyOne(rs, id)
	if err != nil {
		return Result{}, nil, err
	}
	switch {
	case ss.local == nil && ss.remote == "":
		return Result{}, nil, fault.NotFoundf("no session %q here or on %s", key, s.Remote).WithHint("run orc-state sessions to list them")
	case ss.err != nil:
		return Result{Session: id, Outcome: Failed, Detail: ss.err.Error()}, nil, nil
	case ss.state == InSync:
		return Result{Session: id, Outcome: UpToDate, Detail: "nothing to resolve"}, nil, nil
	case keep == KeepLocal && (ss.state == Ahead || ss.state == NotPushed):
		return Result{Session: id, Outcome: IsAhead, Detail: "nothing to resolve: local changes not pushed; push to publish"}, nil, nil
	case ss.state != Diverged:
		hint := "orc-state sync pull --remote=" + safetext.Quote(s.Remote) + " " + safetext.Quote(id)
		if ss.state == Ahead || ss.state == NotPushed {
			hint = "orc-state sync push --remote=" + safetext.Quote(s.Remote) + " " + safetext.Quote(id)
		}
		return Result{}, nil, fault.Usagef("%s is %s, not diverged; nothing to resolve", id, ss.state).WithHint("%s", hint)
	}
	if keep == KeepRemote {
		return s.keepRemote(rs, ss)
	}
	if _, theirs := sides(ss); len(theirs) > 0 && !force {
		return Result{Session: id, Outcome: Refused,
			Detail: fmt.Sprintf("keeping local discards the remote's change %s (%d line(s) of its journal, listed below); nothing was changed", span(theirs), len(theirs)),
			Extra:  listChanges("discards", theirs),
			Hint:   fmt.Sprintf("to discard them (the remote's side is archived first, and its machine is told on its next pull): orc-state sync resolve --keep=local --force%s %s", remoteFlag(s.Remote), safetext.Operand(id))}, nil, nil
	}
	return s.keepLocal(rs, ss)
}

// keepRemote archives the local side and imports the remote's.
func (s *Syncer) keepRemote(rs refSet, ss *session) (Result, []string, error) {
	entry, err := validateRemote(ss.id, ss.remoteTree)
	if err != nil {
		return Result{Session: ss.id, Outcome: Refused, Detail: err.Error() + "; nothing was changed"}, nil, nil
	}
	local, err := s.localCommit(ss) // the commit the divergence named
	if err != nil {
		return Result{}, nil, fault.Wrap(fault.Invalid, err, "cannot archive the local side")
	}
	archive, err := s.archive(rs, ss.id, local)
	if err != nil {
		return Result{}, nil, err
	}
	log := s.logLine(ss.id, ss.remote)
	log.Keep, log.Archive, log.Local = KeepRemote, archive, local
	skipped, err := s.applyImports([]*importJob{{ss: ss, entry: entry, log: log}})
	if err != nil {
		s.unarchive(archive, local)
		return Result{}, nil, err
	}
	if err, ok := skipped[ss.id]; ok && errors.Is(err, errChanged) {
		s.unarchive(archive, local)
		return Result{Session: ss.id, Outcome: Failed, Detail: "changed while resolving; run it again"}, nil, nil
	}
	var warnings []string
	if err := s.moveRefs([]gitx.RefUpdate{{Name: BaseRef(ss.id), New: ss.remote, Old: ss.base, Check: true}}); err != nil {
		warnings = append(warnings, "warning: the local sync ref was not moved ("+err.Error()+"); the next sync sets it")
	}
	mine, _ := sides(ss)
	return Result{Session: ss.id, Outcome: Resolved, Archive: archive,
		Detail: "kept remote " + short(ss.remote) + "; local " + short(local) + " archived as " + archive,
		Extra:  listChanges("discarded", mine)}, warnings, nil
}

// keepLocal archives the remote's side, journals the choice in the
// session, and makes the remote's commit the base of the local one.
func (s *Syncer) keepLocal(rs refSet, ss *session) (Result, []string, error) {
	archive, err := s.archive(rs, ss.id, ss.remote)
	if err != nil {
		return Result{}, nil, err
	}
	log := s.logLine(ss.id, ss.remote)
	log.Keep, log.Archive = KeepLocal, archive
	changed := false
	err = s.Dir.Update(context.Background(), s.Opts, func(tx *state.Tx) error {
		now, err := readLocal(tx.Dir(), tx.Reg, ss.id)
		if err != nil {
			return err
		}
		if changed = !ss.local.Equal(now); changed {
			return nil
		}
		tx.Touch(ss.id, map[string]string{"keep": KeepLocal, "remote": ss.remote, "archive": archive})
		line, _ := json.Marshal(log)
		tx.AppendState(LogFile, append(line, '\n'))
		return nil
	})
	if err != nil || changed {
		s.unarchive(archive, ss.remote)
	}
	if err != nil {
		return Result{}, nil, err
	}
	if changed {
		return Result{Session: ss.id, Outcome: Failed, Detail: "changed while resolving; run it again"}, nil, nil
	}
	var warnings []string
	if err := s.moveRefs([]gitx.RefUpdate{{Name: BaseRef(ss.id), New: ss.remote, Old: ss.base, Check: true}}); err != nil {
		warnings = append(warnings, "warning: the local sync ref was not moved ("+err.Error()+"); run orc-state sync resolve again")
	}
	_, theirs := sides(ss)
	return Result{Session: ss.id, Outcome: Resolved, Archive: archive,
		Detail: "kept local; remote " + short(ss.remote) + " archived as " + archive + "; push to publish",
		Extra:  listChanges("discarded", theirs)}, warnings, nil
}

// archive creates a new archive ref of the session pointing at commit,
// named after the time; the name is new in rs, and the ref is created
// only if absent: a name another writer took meanwhile (an orc-state
// removal archiving in the same second) moves on to the next one.
func (s *Syncer) archive(rs refSet, id, commit string) (string, error) {
	now := s.now()
	n := 1
	var err error
	for try := 0; try < 16; try++ {
		for rs.archives[archiveName(id, now, n)] != "" {
			n++
		}
		name := archiveName(id, now, n)
		if err = s.moveRefs([]gitx.RefUpdate{{Name: name, New: commit, Check: true}}); err == nil {
			rs.archives[name] = commit
			return name, nil
		}
		n++
	}
	return "", fault.Wrap(fault.NotFound, err, "cannot create %s", archiveName(id, now, n-1)).WithHint("run orc-state sync resolve again")
}

// unarchive drops an archive made for a resolution that did not happen.
func (s *Syncer) unarchive(name, commit string) {
	_ = s.moveRefs([]gitx.RefUpdate{{Name: name, Old: commit, Check: true}})
}

// surveyOne reads one session's local state and surveys it against rs.
func (s *Syncer) surveyOne(rs refSet, id string) (*session, error) {
	locals, err := s.readLocals([]string{id}, false)
	if err != nil {
		return nil, err
	}
	surveyed, err := s.survey(rs, []string{id}, locals)
	if err != nil {
		return nil, err
	}
	return surveyed[0], nil
}
