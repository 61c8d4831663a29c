package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"
)

// Migration is the result of Migrate: the schema-1 registry, and a record
// of everything that did not map one to one, so nothing is lost silently.
type Migration struct {
	Registry *Registry
	Changed  bool
	// Notes are one-line human reports (printed on stderr).
	Notes []string
	// Dropped holds, per new sessionId, the legacy keys that have no place
	// in schema 1, with their raw values (recorded in the journal).
	Dropped map[string]map[string]json.RawMessage
	// DroppedTop holds the unmapped top-level keys.
	DroppedTop map[string]json.RawMessage
	// Folders maps a new sessionId to the legacy folder names that held its
	// files (when the old key differs from the new one).
	Folders map[string][]string
}

// consumed are the legacy keys Migrate maps into schema 1.
var consumed = map[string]bool{
	"sessionId": true, "branch": true, "gitBranch": true, "command": true, "description": true,
	"status": true, "phase": true, "current_phase": true, "phaseLabel": true, "totalPhases": true,
	"total_phases": true, "jiraTicket": true, "planFile": true, "linkedPRs": true, "startedAt": true,
	"created_at": true, "updatedAt": true, "updated_at": true, "scope": true, "repos": true,
	"perRepoState": true, "gate": true,
}

// Migrate converts a legacy registry (snake_case vocabulary, string phases,
// a missing schema, duplicate entries, '/'-only sanitized keys) to schema 1
// with the one sanitizer. An input that is already valid schema 1 comes back
// unchanged with Changed false.
func Migrate(data []byte) (*Migration, error) {
	if r, err := Parse(data); err == nil {
		return &Migration{Registry: r}, nil
	} else if ie, ok := err.(*InvalidError); ok && ie.Next == "upgrade orc-state" {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &InvalidError{Fault: "not a JSON object: " + err.Error(), Next: "restore orc.json from a backup, or remove it"}
	}
	m := &Migration{
		Registry:   &Registry{Schema: Schema, Sessions: []Session{}},
		Changed:    true,
		Dropped:    map[string]map[string]json.RawMessage{},
		DroppedTop: map[string]json.RawMessage{},
		Folders:    map[string][]string{},
	}
	for k, v := range top {
		if k != "schema" && k != "sessions" {
			m.DroppedTop[k] = v
			m.Notes = append(m.Notes, fmt.Sprintf("top-level key %q has no place in schema 1; recorded in the journal", k))
		}
	}
	var raw []map[string]json.RawMessage
	if s, ok := top["sessions"]; ok {
		if err := json.Unmarshal(s, &raw); err != nil {
			return nil, &InvalidError{Fault: "sessions is not a list of objects", Next: "fix orc.json by hand, then run orc-state migrate"}
		}
	}
	index := map[string]int{}
	for i, e := range raw {
		s, dropped, notes, oldKey, err := migrateEntry(e)
		if err != nil {
			return nil, &InvalidError{Fault: fmt.Sprintf("session %d: %v", i+1, err), Next: "fix that entry by hand, then run orc-state migrate"}
		}
		for _, n := range notes {
			m.Notes = append(m.Notes, s.SessionID+": "+n)
		}
		if oldKey != "" && oldKey != s.SessionID {
			m.Folders[s.SessionID] = appendUnique(m.Folders[s.SessionID], oldKey)
		}
		if j, dup := index[s.SessionID]; dup {
			kept := &m.Registry.Sessions[j]
			if kept.GitBranch != s.GitBranch {
				return nil, &InvalidError{
					Fault: fmt.Sprintf("branches %q and %q both map to session %q", kept.GitBranch, s.GitBranch, s.SessionID),
					Next:  "remove or rename one entry by hand, then run orc-state migrate",
				}
			}
			loser := mergeInto(kept, s)
			whole, _ := json.Marshal(loser)
			dropped["mergedEntry"] = whole
			m.Notes = append(m.Notes, fmt.Sprintf("%s: merged a duplicate entry (older fields kept in the journal)", s.SessionID))
		} else {
			index[s.SessionID] = len(m.Registry.Sessions)
			m.Registry.Sessions = append(m.Registry.Sessions, s)
		}
		if len(dropped) > 0 {
			if m.Dropped[s.SessionID] == nil {
				m.Dropped[s.SessionID] = map[string]json.RawMessage{}
			}
			for k, v := range dropped {
				m.Dropped[s.SessionID][k] = v
			}
		}
	}
	if err := m.Registry.Validate(); err != nil {
		return nil, &InvalidError{Fault: "after migration: " + err.Error(), Next: "fix that entry by hand, then run orc-state migrate"}
	}
	return m, nil
}

// mergeInto merges duplicate b into a: the newer entry's fields win, linked
// PRs are united by URL. It returns the entry whose fields lost.
func mergeInto(a *Session, b Session) Session {
	older := b
	if b.UpdatedAt > a.UpdatedAt {
		older = *a
		prs := a.LinkedPRs
		*a = b
		a.LinkedPRs = unionPRs(b.LinkedPRs, prs)
	} else {
		a.LinkedPRs = unionPRs(a.LinkedPRs, b.LinkedPRs)
	}
	if older.StartedAt < a.StartedAt {
		a.StartedAt = older.StartedAt
	}
	return older
}

func unionPRs(a, b []PR) []PR {
	out := append([]PR{}, a...)
	for _, pr := range b {
		found := false
		for _, have := range out {
			found = found || have.URL == pr.URL
		}
		if !found {
			out = append(out, pr)
		}
	}
	return out
}

func migrateEntry(e map[string]json.RawMessage) (s Session, dropped map[string]json.RawMessage, notes []string, oldKey string, err error) {
	dropped = map[string]json.RawMessage{}
	for k, v := range e {
		if !consumed[k] && k != "planPath" {
			dropped[k] = v
			notes = append(notes, fmt.Sprintf("key %q has no place in schema 1; recorded in the journal", k))
		}
	}
	str := func(keys ...string) string {
		for _, k := range keys {
			var v string
			if json.Unmarshal(e[k], &v) == nil && v != "" {
				return v
			}
		}
		return ""
	}
	oldKey = str("sessionId", "branch")
	s.GitBranch = str("gitBranch", "branch")
	if s.GitBranch == "" {
		return s, nil, nil, "", fmt.Errorf("no gitBranch or branch to key it by")
	}
	if s.SessionID, err = KeyFor(s.GitBranch); err != nil {
		return s, nil, nil, "", err
	}
	s.Branch = s.SessionID
	s.Command = str("command")
	if s.Command == "" {
		s.Command = "unknown"
		notes = append(notes, "no command; set to unknown")
	}
	s.Description = str("description")
	s.Status = str("status")
	if s.Status == "" {
		s.Status = "completed"
		notes = append(notes, "no status; set to completed")
	}
	s.PhaseLabel = Str(str("phaseLabel"))
	s.Phase, notes = migratePhase(e, &s, notes, dropped)
	s.TotalPhases = intOf(e["totalPhases"], e["total_phases"])
	if s.TotalPhases < 1 || (!s.Phase.Done && s.Phase.N > s.TotalPhases) {
		was := s.TotalPhases
		s.TotalPhases = max(s.Phase.N, 1)
		notes = append(notes, fmt.Sprintf("totalPhases %d is missing or below the phase; set to %d", was, s.TotalPhases))
	}
	s.JiraTicket = Str(str("jiraTicket"))
	if s.JiraTicket != nil && !JiraKey.MatchString(*s.JiraTicket) {
		dropped["jiraTicket"] = e["jiraTicket"]
		notes = append(notes, fmt.Sprintf("jiraTicket %q is not a Jira key; recorded in the journal", *s.JiraTicket))
		s.JiraTicket = nil
	}
	s.PlanFile = Str(str("planFile"))
	if plan := str("planPath"); plan != "" && s.PlanFile == nil {
		s.PlanFile = &plan
		notes = append(notes, "planPath kept as planFile")
	} else if v, ok := e["planPath"]; ok {
		dropped["planPath"] = v
		notes = append(notes, "planPath beside planFile; recorded in the journal")
	}
	s.LinkedPRs = []PR{}
	if v, ok := e["linkedPRs"]; ok && string(v) != "null" {
		if json.Unmarshal(v, &s.LinkedPRs) != nil {
			s.LinkedPRs = []PR{}
			dropped["linkedPRs"] = v
			notes = append(notes, "linkedPRs has an unknown shape; recorded in the journal")
		}
		s.LinkedPRs = unionPRs(nil, s.LinkedPRs)
	}
	s.StartedAt, notes = migrateTime("startedAt", notes, str("startedAt", "created_at"), str("updatedAt", "updated_at"))
	s.UpdatedAt, notes = migrateTime("updatedAt", notes, str("updatedAt", "updated_at", "startedAt", "created_at"))
	s.Scope = str("scope")
	if v, ok := e["repos"]; ok {
		if json.Unmarshal(v, &s.Repos) != nil {
			var objs []struct{ Name string }
			if json.Unmarshal(v, &objs) == nil {
				s.Repos = nil
				for _, o := range objs {
					s.Repos = append(s.Repos, o.Name)
				}
			}
			dropped["repos"] = v
			notes = append(notes, "repos listed as objects; kept their names, full list recorded in the journal")
		}
	}
	if v, ok := e["perRepoState"]; ok && json.Unmarshal(v, &s.PerRepoState) != nil {
		s.PerRepoState = nil
		dropped["perRepoState"] = v
		notes = append(notes, "perRepoState has an unknown shape; recorded in the journal")
	}
	for _, k := range []string{"session_id", "branchSanitized"} {
		if v, ok := e[k]; ok {
			dropped[k] = v
		}
	}
	return s, dropped, notes, oldKey, nil
}

// migratePhase keeps a numeric phase, maps "done", and keeps a string phase
// as the label instead of clobbering an existing label.
func migratePhase(e map[string]json.RawMessage, s *Session, notes []string, dropped map[string]json.RawMessage) (Phase, []string) {
	if n := intOf(e["current_phase"]); n >= 1 {
		if v, ok := e["phase"]; ok {
			var label string
			if json.Unmarshal(v, &label) == nil && label != "" && label != "done" {
				if s.PhaseLabel == nil {
					s.PhaseLabel = &label
				} else if *s.PhaseLabel != label {
					dropped["phase"] = v
					notes = append(notes, fmt.Sprintf("string phase %q differs from phaseLabel; recorded in the journal", label))
				}
			}
		}
		return Phase{N: n}, notes
	}
	raw := e["phase"]
	if n := intOf(raw); n >= 1 {
		return Phase{N: n}, notes
	}
	var str string
	if json.Unmarshal(raw, &str) == nil && str != "" {
		if p, err := ParsePhase(str); err == nil {
			return p, notes
		}
		if s.PhaseLabel == nil {
			s.PhaseLabel = &str
			notes = append(notes, fmt.Sprintf("string phase %q kept as phaseLabel; phase set to done", str))
		} else {
			dropped["phase"] = raw
			notes = append(notes, fmt.Sprintf("string phase %q recorded in the journal; phase set to done", str))
		}
		return Phase{Done: true}, notes
	}
	notes = append(notes, "no phase; set to done")
	return Phase{Done: true}, notes
}

func migrateTime(name string, notes []string, candidates ...string) (string, []string) {
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if _, err := time.Parse(TimeLayout, c); err == nil {
			return c, notes
		}
		if t, err := time.Parse(time.RFC3339Nano, c); err == nil {
			return t.UTC().Format(TimeLayout), append(notes, fmt.Sprintf("%s %q normalised to UTC seconds", name, c))
		}
	}
	now := Now()
	return now, append(notes, fmt.Sprintf("no usable %s; set to %s", name, now))
}

// intOf returns the first raw value that is a whole JSON number or a string
// of digits, else 0.
func intOf(raws ...json.RawMessage) int {
	for _, raw := range raws {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
		if n, err := strconv.Atoi(string(raw)); err == nil {
			return n
		}
	}
	return 0
}

func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	list = append(list, v)
	sort.Strings(list)
	return list
}
