package refsync

import (
	"errors"
	"fmt"
	"slices"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

// Pull fetches, then imports each remote session (or only key's) that is
// behind or absent here, each on its own: one Result per remote session.
// It runs git first (fetch, object reads), then one transaction for every
// import, then moves the imported sessions' bases.
func (s *Syncer) Pull(key string) (results []Result, warnings []string, err error) {
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
			WithHint("orc-state sync status --remote %s", safetext.Quote(s.Remote))
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
	var fixes []gitx.RefUpdate
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
				set(results, Result{id, Failed, "changed while pulling; run orc-state sync pull again"})
				s.unarchiveBases([]*importJob{j})
				continue
			case ok && err != nil:
				set(results, Result{id, Refused, err.Error()})
				s.unarchiveBases([]*importJob{j})
				continue
			case ok:
				set(results, Result{id, UpToDate, short(j.ss.remote)})
			}
			fixes = append(fixes, gitx.RefUpdate{Name: BaseRef(id), New: j.ss.remote, Old: j.ss.base, Check: true})
		}
	}
	if err := s.moveRefs(fixes); err != nil {
		warnings = append(warnings, "the local sync refs were not moved ("+err.Error()+"); the next sync sets them")
	}
	return results, warnings, nil
}

// planPull decides one session's pull: its Result, and the import to run
// when it is behind or absent here.
func (s *Syncer) planPull(ss *session, fixes *[]gitx.RefUpdate) (Result, *importJob) {
	switch ss.state {
	case InSync:
		if ss.base != ss.remote {
			*fixes = append(*fixes, gitx.RefUpdate{Name: BaseRef(ss.id), New: ss.remote, Old: ss.base, Check: true})
		}
		return Result{ss.id, UpToDate, short(ss.remote)}, nil
	case Ahead:
		return Result{ss.id, IsAhead, "local changes not pushed; push to publish"}, nil
	case Diverged:
		return Result{ss.id, IsDiverged, s.divergence(ss)}, nil
	case Behind, RemoteOnly:
		entry, err := validateRemote(ss.id, ss.remoteTree)
		if err != nil {
			return Result{ss.id, Refused, err.Error() + "; nothing of it was imported"}, nil
		}
		job := &importJob{ss: ss, entry: entry, log: s.logLine(ss.id, ss.remote)}
		if replaced, err := s.replaces(ss); err != nil {
			return Result{ss.id, Failed, err.Error()}, nil
		} else if replaced {
			job.archiveBase = true
		}
		return Result{ss.id, Imported, short(ss.remote)}, job
	}
	msg := "cannot decide"
	if ss.err != nil {
		msg = ss.err.Error()
	}
	return Result{ss.id, Failed, msg}, nil
}

// divergence names both heads of a diverged session: the local commit (the
// one push would publish) and the remote's.
func (s *Syncer) divergence(ss *session) string {
	local := "changes holding a credential"
	if _, bad := credential(ss.local); !bad {
		if c, err := s.localCommit(ss); err == nil {
			local = short(c)
		}
	}
	return "local " + local + ", remote " + short(ss.remote)
}

// replaces reports whether importing the remote's commit would drop the
// base's history: the remote ref was replaced by a commit that does not
// descend from the base (deleted and pushed again, or forced).
func (s *Syncer) replaces(ss *session) (bool, error) {
	if ss.base == "" || ss.base == ss.remote {
		return false, nil
	}
	ctx, cancel := s.ctx()
	defer cancel()
	descends, err := s.git.IsAncestor(ctx, ss.base, ss.remote)
	if err != nil {
		return false, fmt.Errorf("cannot compare %s with %s: %w", short(ss.base), short(ss.remote), err)
	}
	return !descends, nil
}

// archiveBases keeps, before anything is imported, the base of each job
// whose remote commit replaced it, so that no published history is lost
// from this machine; the job's result and log line name the archive.
func (s *Syncer) archiveBases(rs refSet, jobs []*importJob, results []Result) error {
	for _, j := range jobs {
		if !j.archiveBase {
			continue
		}
		name, err := s.archive(rs, j.ss.id, j.ss.base)
		if err != nil {
			s.unarchiveBases(jobs)
			return err
		}
		j.log.Archive = name
		set(results, Result{j.ss.id, Imported, short(j.ss.remote) + "; it replaced " + short(j.ss.base) + ", kept as " + name})
	}
	return nil
}

// unarchiveBases drops the archives of imports that did not happen.
func (s *Syncer) unarchiveBases(jobs []*importJob) {
	for _, j := range jobs {
		if j.log.Archive != "" {
			s.unarchive(j.log.Archive, j.ss.base)
			j.log.Archive = ""
		}
	}
}
