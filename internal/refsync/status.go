package refsync

import (
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
)

// Row is one line of sync status: a session and its State, or an archive
// ref and "archived <sha12>".
type Row struct {
	Name  string
	State string
}

// Status compares every session of the registry and of the remote (or only
// key's) with the remote, as push and pull would then see it, and lists
// the archives sync resolve kept. It writes nothing under the state dir.
func (s *Syncer) Status(key string) ([]Row, error) {
	if !s.NoFetch {
		if err := s.fetch(); err != nil {
			return nil, err
		}
	}
	reg, _, err := s.Dir.ReadRegistry()
	if err != nil {
		return nil, err
	}
	rs, err := s.refs()
	if err != nil {
		return nil, err
	}
	local := map[string]string{}
	for _, ss := range reg.Sessions {
		local[ss.SessionID] = ""
	}
	var ids []string
	want := ""
	if key != "" {
		want, _ = Select(reg, key)
	}
	for _, id := range sortedIDs(local, rs.remotes) {
		if want == "" || id == want {
			ids = append(ids, id)
		}
	}
	if key != "" && len(ids) == 0 {
		return nil, fault.NotFoundf("no session %q here or on %s", key, s.Remote).
			WithHint("run orc-state sessions to list them")
	}
	locals, err := s.readLocals(ids, false)
	if err != nil {
		return nil, err
	}
	sessions, err := s.survey(rs, ids, locals)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, ss := range sessions {
		st := ss.state
		switch st {
		case Behind, RemoteOnly:
			if _, err := validateRemote(ss.id, ss.remoteTree); err != nil {
				st = InvalidRemote
			}
		case Ahead, NotPushed:
			if unpublishable(ss) != "" {
				st = InvalidLocal
			}
		}
		rows = append(rows, Row{ss.id, string(st)})
	}
	return append(rows, archiveRows(rs, want)...), nil
}

// archiveRows lists the archive refs of one session ("" for all), oldest
// first within a session.
func archiveRows(rs refSet, id string) []Row {
	var rows []Row
	for name, sha := range rs.archives {
		if id != "" && !strings.HasPrefix(name, ArchivePrefix+id+"/") {
			continue
		}
		rows = append(rows, Row{name, "archived " + short(sha)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows
}
