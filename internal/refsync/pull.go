package refsync

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// Pull fetches, then imports each remote session (or only key's) that is
// behind or absent here, each on its own: one Result per remote session.
// It runs git first (fetch, object reads), then one transaction for every
// import, then moves the imported sessions' bases.
func (s *Syncer) Pull(key string) (results []Result, warnings []string, err error) {
	unlock, err := s.lock()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	if err := s.fetch(); err != nil {
		return nil, nil, err
	}
	rs, err := s.refs()
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	for _, id := range sortedIDs(rs.remotes) {
		if key == "" || id == key || slices.Contains(registry.Keys(key), id) {
			ids = append(ids, id)
		}
	}
	if key != "" && len(ids) == 0 {
		return nil, nil, fault.NotFoundf("%s has no session %q", s.Remote, key).
			WithHint("orc-state sync status --remote=%s", safetext.Quote(s.Remote))
	}
	locals, err := s.readLocals(ids, false)
	if err != nil {
		return nil, nil, err
	}
	sessions, err := s.survey(rs, ids, locals)
	if err != nil {
		return nil, nil, err
	}
	var jobs []*importJob
	var fixes refFixes
	for _, ss := range sessions {
		r, job := s.planPull(ss, &fixes)
		results = append(results, r)
		if job != nil {
			jobs = append(jobs, job)
		}
	}
	if err := s.archiveBases(rs, jobs, results); err != nil {
		return nil, nil, err
	}
	if len(jobs) > 0 {
		skipped, err := s.applyImports(jobs)
		if err != nil {
			s.unarchiveBases(jobs)
			return nil, nil, err
		}
		for _, j := range jobs {
			id := j.ss.id
			switch err, ok := skipped[id]; {
			case ok && errors.Is(err, errChanged):
				set(results, Result{Session: id, Outcome: Failed, Detail: "changed while pulling; run orc-state sync pull again"})
				s.unarchiveBases([]*importJob{j})
				continue
			case ok && err != nil:
				set(results, Result{Session: id, Outcome: Refused, Detail: err.Error()})
				s.unarchiveBases([]*importJob{j})
				continue
			case ok:
				set(results, Result{Session: id, Outcome: UpToDate, Detail: short(j.ss.remote)})
			}
			fixes.base(j.ss, j.ss.remote)
		}
	}
	return results, s.applyFixes(fixes), nil
}

// planPull decides one session's pull: its Result, and the import to run
// when it is behind or absent here.
func (s *Syncer) planPull(ss *session, fixes *refFixes) (Result, *importJob) {
	switch ss.state {
	case InSync:
		fixes.base(ss, ss.remote)
		return Result{Session: ss.id, Outcome: UpToDate, Detail: short(ss.remote)}, nil
	case Ahead:
		fixes.base(ss, ss.effBase)
		return Result{Session: ss.id, Outcome: IsAhead, Detail: "local changes not pushed; push to publish"}, nil
	case Diverged:
		return s.diverged(ss, ""), nil
	case Behind, RemoteOnly:
		entry, err := validateRemote(ss.id, ss.remoteTree)
		if err != nil {
			return Result{Session: ss.id, Outcome: Refused, Detail: err.Error() + "; nothing of it was imported"}, nil
		}
		job := &importJob{ss: ss, entry: entry, log: s.logLine(ss.id, ss.remote)}
		if lj, rj := journalOf(ss.local), journalOf(ss.remoteTree.Snapshot()); ss.local != nil && !bytes.HasPrefix(rj, lj) {
			job.superseded = lacking(changesOf(lj), changesOf(rj)) // not a plain extension: what does it drop?
		}
		// The import drops what this machine had: the local side, when
		// it supersedes changes (it is the effective base), else the base,
		// when the remote's commit does not descend from it.
		job.archiveBase = len(job.superseded) > 0 || ss.replaced
		return Result{Session: ss.id, Outcome: Imported, Detail: short(ss.remote)}, job
	}
	msg := "cannot decide"
	if ss.err != nil {
		msg = ss.err.Error()
	}
	return Result{Session: ss.id, Outcome: Failed, Detail: msg}, nil
}

// diverged is the result of a diverged session: both heads (the local
// commit, the one push would publish, and the remote's), then what each
// side changed that the other lacks.
func (s *Syncer) diverged(ss *session, suffix string) Result {
	local := "changes holding a credential"
	if _, bad := credential(ss.local); !bad {
		if c, err := s.localCommit(ss); err == nil {
			local = short(c)
		}
	}
	mine, theirs := sides(ss)
	return Result{Session: ss.id, Outcome: IsDiverged, Detail: "local " + local + ", remote " + short(ss.remote) + suffix,
		Extra: append(listChanges("local", mine), listChanges("remote", theirs)...)}
}

// sides are the changes only the local side has and those only the
// remote's has (their journal lines since the common base).
func sides(ss *session) (local, remote []change) {
	l, r := changesOf(journalOf(ss.local)), changesOf(journalOf(ss.remoteTree.Snapshot()))
	return lacking(l, r), lacking(r, l)
}

// archiveBases keeps, before anything is imported, the base of each job
// whose remote commit replaced it, so that no published history is lost
// from this machine; the job's result and log line name the archive.
func (s *Syncer) archiveBases(rs refSet, jobs []*importJob, results []Result) error {
	for _, j := range jobs {
		if !j.archiveBase {
			continue
		}
		name, err := s.archive(rs, j.ss.id, j.archived())
		if err != nil {
			s.unarchiveBases(jobs)
			return err
		}
		j.log.Archive = name
		if len(j.superseded) > 0 {
			set(results, superseded(j, name))
			continue
		}
		set(results, Result{Session: j.ss.id, Outcome: Imported, Detail: short(j.ss.remote) + "; it replaced " + short(j.ss.base) + ", kept as " + name})
	}
	return nil
}

// unarchiveBases drops the archives of imports that did not happen.
func (s *Syncer) unarchiveBases(jobs []*importJob) {
	for _, j := range jobs {
		if j.log.Archive != "" {
			s.unarchive(j.log.Archive, j.archived())
			j.log.Archive = ""
		}
	}
}

// superseded is the result of an import that drops changes this machine
// had: the remote's side replaced them (a resolution elsewhere kept the
// other side, or the remote's history was replaced). They are archived
// first; the line names them, who replaced them, and the archive.
func superseded(j *importJob, archive string) Result {
	by := "another machine"
	theirs := lacking(changesOf(journalOf(j.ss.remoteTree.Snapshot())), changesOf(journalOf(j.ss.local)))
	for _, c := range theirs {
		by = safetext.Escape(c.Actor)
		if c.Verb == "sync resolve" || c.Verb == "sync restore" {
			break
		}
	}
	return Result{Session: j.ss.id, Outcome: Superseded, Archive: archive,
		Detail: fmt.Sprintf("your change %s was replaced by %s; archived at %s; imported %s", span(j.superseded), by, archive, short(j.ss.remote)),
		Extra:  listChanges("superseded", j.superseded)}
}
