package refsync

import (
	"context"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
)

// Restore takes an archived side back: the session becomes the archive's
// content plus a "sync restore" journal line, a local change on top of the
// remote's head, so the next push publishes it and the machine whose
// changes it replaces is told so on its next pull (superseded), as for
// sync resolve --keep local. What the session holds now and the archive
// lacks is archived first and listed; without force that only lists it
// and refuses (exit 2), changing nothing. The session must be in sync with
// the remote or ahead of it (pull or resolve first).
func (s *Syncer) Restore(ref string, force bool) (Result, []string, error) {
	id, ok := archiveSession(ref)
	if !ok {
		return Result{}, nil, fault.Usagef("%q is not an archive ref (refs/orc/archive/<sessionId>/<time>)", ref).
			WithHint("orc-state sync status lists the archives")
	}
	unlock, err := s.lock()
	if err != nil {
		return Result{}, nil, err
	}
	defer unlock()
	if err := s.fetch(); err != nil {
		return Result{}, nil, err
	}
	rs, err := s.refs()
	if err != nil {
		return Result{}, nil, err
	}
	commit := rs.archives[ref]
	if commit == "" {
		return Result{}, nil, fault.NotFoundf("no archive %s here", ref).WithHint("orc-state sync status lists the archives")
	}
	// The archive is validated whole before anything else (a whole
	// session, by the rules every import and restore applies).
	tree, err := s.readTree(commit)
	if err != nil {
		return Result{}, nil, fault.Wrap(fault.Invalid, err, "cannot read %s", ref)
	}
	// A removed session's archive keeps its worktree bindings: they never
	// travel, and sync restore leaves them out.
	delete(tree, binding.FileName)
	entry, err := validateTree(id, tree, "archived")
	if err != nil {
		return Result{Session: id, Outcome: Refused, Detail: err.Error() + "; nothing was changed"}, nil, nil
	}
	ss, err := s.surveyOne(rs, id)
	if err != nil {
		return Result{}, nil, err
	}
	switch {
	case ss.err != nil:
		return Result{Session: id, Outcome: Failed, Detail: ss.err.Error()}, nil, nil
	case ss.state == Behind || ss.state == RemoteOnly:
		return Result{}, nil, fault.Usagef("%s is %s; pull first, then restore", id, ss.state).
			WithHint("orc-state sync pull%s %s", remoteFlag(s.Remote), safetext.Operand(id))
	case ss.state == Diverged:
		return Result{}, nil, fault.Usagef("%s is diverged; resolve it first, then restore", id).
			WithHint("orc-state sync resolve --keep=SIDE%s %s (SIDE: local or remote)", remoteFlag(s.Remote), safetext.Operand(id))
	}
	discards := lacking(changesOf(journalOf(ss.local)), changesOf(journalOf(tree.Snapshot())))
	if len(discards) > 0 && !force {
		return Result{Session: id, Outcome: Refused,
			Detail: fmt.Sprintf("restoring %s discards the change %s that the session holds now (listed below); nothing was changed", ref, span(discards)),
			Extra:  listChanges("discards", discards),
			Hint:   fmt.Sprintf("to discard them (they are archived first, and a machine whose changes they are is told on its next pull): orc-state sync restore %s --force%s", safetext.Quote(ref), remoteFlag(s.Remote))}, nil, nil
	}
	job := &importJob{ss: &session{id: id, local: ss.local, remoteTree: tree}, entry: entry, log: s.logLine(id, commit)}
	var archived string
	if ss.local != nil && len(discards) > 0 {
		local, err := s.localCommit(ss)
		if err != nil {
			return Result{}, nil, fault.Wrap(fault.Invalid, err, "cannot archive the session as it is")
		}
		if archived, err = s.archive(rs, id, local); err != nil {
			return Result{}, nil, err
		}
		job.log.Archive, job.log.Local = archived, local
	}
	changed := false
	err = s.Dir.Update(context.Background(), s.Opts, func(tx *state.Tx) error {
		now, err := readLocal(tx.Dir(), tx.Reg, id)
		if err != nil {
			return err
		}
		if changed = !ss.local.Equal(now); changed {
			return nil
		}
		if now == nil {
			if err := sameFolder(tx.Reg, entry); err != nil {
				return fault.Wrap(fault.Usage, err, "cannot restore %s", ref)
			}
		}
		importInto(tx, job, now)
		tx.Replace(id)
		args := map[string]string{"restored": ref, "commit": commit}
		if archived != "" {
			args["archive"] = archived
		}
		tx.Touch(id, args)
		return nil
	})
	if err != nil || changed {
		if archived != "" {
			s.unarchive(archived, job.log.Local)
		}
	}
	if err != nil {
		return Result{}, nil, err
	}
	if changed {
		return Result{Session: id, Outcome: Failed, Detail: "changed while restoring; run it again"}, nil, nil
	}
	detail := "restored " + ref + "; push to publish"
	if archived != "" {
		detail = "restored " + ref + "; what it replaced is archived as " + archived + "; push to publish"
	}
	return Result{Session: id, Outcome: Restored, Detail: detail, Archive: archived, Extra: listChanges("discarded", discards)}, nil, nil
}

// archiveSession is the sessionId of an archive ref's name.
func archiveSession(ref string) (string, bool) {
	rest, ok := strings.CutPrefix(ref, ArchivePrefix)
	if !ok {
		return "", false
	}
	id, stamp, ok := strings.Cut(rest, "/")
	if !ok || id == "" || stamp == "" || strings.Contains(stamp, "/") || refName(id) != "" {
		return "", false
	}
	return id, true
}

// readTree reads one commit's content.
func (s *Syncer) readTree(commit string) (gitx.Tree, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	objects, err := s.git.OpenObjects(ctx)
	if err != nil {
		return nil, err
	}
	defer objects.Close()
	return objects.ReadTree(commit)
}
