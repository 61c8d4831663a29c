package refsync

import (
	"slices"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
)

// Row is one line of sync status: a session and its State, or an archive
// ref and "archived <sha12>".
type Row struct {
	Name  string
	State string
	// Extra are lines printed after the row's: for a diverged session,
	// what each side changed since the common base.
	Extra []string
}

// Status compares every session of the registry and of the remote (or only
// key's) with the remote, as push and pull would then see it, and lists
// the archives sync resolve kept. It writes nothing under the state dir.
func (s *Syncer) Status(key string) ([]Row, error) {
	if !s.NoFetch {
		unlock, err := s.lock()
		if err != nil {
			return nil, err
		}
		defer unlock()
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
	// A chunk of sessions at a time, each read from the registry already
	// read: with every session's files held at once, sync status at 10,000
	// sessions kept its heap at the memory limit and collected a thousand
	// times.
	var rows []Row
	for chunk := range slices.Chunk(ids, statusChunk) {
		locals, err := s.readLocalsOf(reg, chunk)
		if err != nil {
			return nil, err
		}
		sessions, err := s.survey(rs, chunk, locals)
		if err != nil {
			return nil, err
		}
		for _, ss := range sessions {
			row := Row{Name: ss.id, State: string(statusOf(ss))}
			if ss.state == Diverged {
				mine, theirs := sides(ss)
				row.Extra = append(listChanges("local", mine), listChanges("remote", theirs)...)
			}
			rows = append(rows, row)
		}
	}
	return append(rows, archiveRows(rs, want)...), nil
}

// statusChunk is how many sessions Status holds in memory at once.
var statusChunk = 256

// statusOf is the state sync status reports for a surveyed session: what
// survey decided, unless the side that would move is invalid.
func statusOf(ss *session) State {
	switch ss.state {
	case Behind, RemoteOnly:
		if _, err := validateRemote(ss.id, ss.remoteTree); err != nil {
			return InvalidRemote
		}
	case Ahead, NotPushed:
		if unpublishable(ss) != "" {
			return InvalidLocal
		}
	}
	return ss.state
}

// archiveRows lists the archive refs of one session ("" for all), oldest
// first within a session.
func archiveRows(rs refSet, id string) []Row {
	var rows []Row
	for name, sha := range rs.archives {
		if id != "" && !strings.HasPrefix(name, ArchivePrefix+id+"/") {
			continue
		}
		rows = append(rows, Row{Name: name, State: "archived " + short(sha)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows
}
