package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/orc-state/orc-state/internal/schemaver"
	"github.com/orc-state/orc-state/internal/strictjson"
)

// Migration is the result of Migrate: the schema-1 registry, and a record
// of everything that did not map one to one, so nothing is lost silently.
type Migration struct {
	Registry *Registry
	Changed  bool
	// Notes are one-line human reports (printed on stderr), in a stable
	// order.
	Notes []string
	// Dropped holds, per new sessionId, the raw legacy values that schema 1
	// does not hold as they were: keys it has no place for, values it could
	// not use or had to change, and under "mergedEntries" the raw legacy
	// objects of the duplicates merged into the entry (recorded in the
	// journal).
	Dropped map[string]map[string]json.RawMessage
	// DroppedTop holds the unmapped top-level keys.
	DroppedTop map[string]json.RawMessage
	// Folders maps a new sessionId to the legacy folder names that held its
	// files (when the old key differs from the new one).
	Folders map[string][]string
	now     string // the time of an entry that records none
}

// consumed are the legacy keys Migrate maps into schema 1.
var consumed = map[string]bool{
	"sessionId": true, "branch": true, "gitBranch": true, "command": true, "description": true,
	"status": true, "phase": true, "current_phase": true, "phaseLabel": true, "totalPhases": true,
	"total_phases": true, "jiraTicket": true, "planFile": true, "planPath": true, "linkedPRs": true,
	"startedAt": true, "created_at": true, "updatedAt": true, "updated_at": true, "scope": true,
	"repos": true, "perRepoState": true, "gate": true,
}

// Migrate converts a legacy registry (snake_case vocabulary, string phases,
// a missing schema, duplicate entries, '/'-only sanitized keys) to schema 1
// with the one sanitizer. An input that is already valid schema 1 comes back
// unchanged with Changed false. A newer schema is refused before anything
// else, however malformed the rest of the file is. now (Stamp) is the time
// an entry gets when it records none.
func Migrate(data []byte, now string) (*Migration, error) {
	if err := refuseNewer(data); err != nil {
		return nil, err
	}
	if r, err := Parse(data); err == nil {
		return &Migration{Registry: r}, nil
	}
	// Duplicate keys and invalid UTF-8 would be resolved silently below
	// (the last key wins, bad bytes become U+FFFD): refuse them instead.
	if err := strictjson.Check(data); err != nil {
		return nil, &InvalidError{Name: fileName, Fault: err.Error(), Problem: Garbled}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &InvalidError{Name: fileName, Fault: "not a JSON object: " + err.Error(), Problem: NotObject}
	}
	m := &Migration{
		Registry:   &Registry{Schema: Schema, Sessions: []Session{}},
		Changed:    true,
		Dropped:    map[string]map[string]json.RawMessage{},
		DroppedTop: map[string]json.RawMessage{},
		Folders:    map[string][]string{},
		now:        now,
	}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		v := top[k]
		switch {
		case k == "sessions", k == "schema" && (isNull(v) || sameJSON(v, Schema)):
		case k == "schema":
			m.DroppedTop[k] = v
			m.Notes = append(m.Notes, "top-level schema is not 1; recorded in the journal")
		default:
			m.DroppedTop[k] = v
			m.Notes = append(m.Notes, fmt.Sprintf("top-level key %q has no place in schema 1; recorded in the journal", k))
		}
	}
	var entries []json.RawMessage
	if v, ok := top["sessions"]; ok && json.Unmarshal(v, &entries) != nil {
		return nil, &InvalidError{Name: fileName, Fault: "sessions is not a list of objects", Problem: BadSessions}
	}
	var order []string
	groups := map[string][]*draft{}
	for i, raw := range entries {
		var e map[string]json.RawMessage
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, &InvalidError{Name: fileName, Fault: "sessions is not a list of objects", Problem: BadSessions}
		}
		d, err := newDraft(raw, e)
		if err != nil {
			return nil, &InvalidError{Name: fileName, Fault: fmt.Sprintf("session %d: %v", i+1, err), Problem: BadEntry}
		}
		id := d.s.SessionID
		if groups[id] == nil {
			order = append(order, id)
		}
		groups[id] = append(groups[id], d)
	}
	for _, id := range order {
		if err := m.add(groups[id]); err != nil {
			return nil, err
		}
	}
	if err := m.Registry.Validate(); err != nil {
		return nil, &InvalidError{Name: fileName, Fault: "after migration: " + err.Error(), Problem: BadEntry}
	}
	return m, nil
}

// refuseNewer refuses a top-level schema above Schema (schemaver.Probe:
// lenient about the rest of the file, so nothing hides the version).
func refuseNewer(data []byte) error {
	if _, e := schemaver.Probe(data, Schema); e != nil && e.Above() { // 2.0 or 1.5 is not converted either
		return e.Invalid(fileName)
	}
	return nil
}

// add merges the entries that map to one sessionId and appends the result.
// The entry with the latest recorded updatedAt wins (one without a recorded
// time counts as oldest; a tie goes to the first); linked PRs are united by
// URL; the earliest startedAt is kept; each losing entry is recorded whole.
func (m *Migration) add(group []*draft) error {
	win := group[0]
	for _, d := range group[1:] {
		if d.s.GitBranch != group[0].s.GitBranch {
			return &InvalidError{
				Name:    fileName,
				Fault:   fmt.Sprintf("branches %q and %q both map to session %q", group[0].s.GitBranch, d.s.GitBranch, d.s.SessionID),
				Problem: Collision,
			}
		}
		if d.s.UpdatedAt > win.s.UpdatedAt {
			win = d
		}
	}
	s := win.s
	var losers []json.RawMessage
	for _, d := range group {
		if d == win {
			continue
		}
		s.LinkedPRs = unionPRs(s.LinkedPRs, d.s.LinkedPRs)
		if d.s.StartedAt != "" && d.s.StartedAt < s.StartedAt {
			for _, k := range []string{"startedAt", "created_at"} {
				if _, ok := win.present(k); ok {
					win.record(k, fmt.Sprintf("%s gives way to the earlier startedAt %q of a duplicate", k, d.s.StartedAt))
				}
			}
			s.StartedAt = d.s.StartedAt
		}
		losers = append(losers, d.raw)
		win.note(fmt.Sprintf("merged a duplicate entry (updatedAt %q) into the newest; recorded in the journal", d.s.UpdatedAt))
	}
	if len(losers) > 0 {
		win.dropped["mergedEntries"], _ = json.Marshal(losers) // raw values of a valid document
	}
	win.finish(&s, m.now)

	id := s.SessionID
	for _, d := range group {
		for _, n := range d.notes {
			m.Notes = append(m.Notes, id+": "+n)
		}
		for _, old := range d.oldKeys {
			m.Folders[id] = appendUnique(m.Folders[id], old)
		}
	}
	if len(win.dropped) > 0 {
		m.Dropped[id] = win.dropped
	}
	m.Registry.Sessions = append(m.Registry.Sessions, s)
	return nil
}

// draft is one legacy entry on its way to schema 1.
type draft struct {
	raw     json.RawMessage            // the legacy object as read
	e       map[string]json.RawMessage // its keys
	s       Session
	oldKeys []string // legacy folder names, when they differ from s.SessionID
	dropped map[string]json.RawMessage
	notes   []string
}

func newDraft(raw json.RawMessage, e map[string]json.RawMessage) (*draft, error) {
	d := &draft{raw: raw, e: e, dropped: map[string]json.RawMessage{}}
	for _, k := range slices.Sorted(maps.Keys(e)) {
		if !consumed[k] {
			d.record(k, fmt.Sprintf("key %q has no place in schema 1", k))
		}
	}
	if err := d.keys(); err != nil {
		return nil, err
	}
	d.texts()
	d.phase()
	d.total()
	d.times()
	d.lists()
	return d, nil
}

func (d *draft) note(n string) { d.notes = append(d.notes, n) }

// record keeps the raw value of key for the journal and says why.
func (d *draft) record(key, why string) {
	if _, done := d.dropped[key]; !done {
		d.dropped[key] = d.e[key]
	}
	d.note(why + "; recorded in the journal")
}

// present returns the raw value of key unless it is absent or null.
func (d *draft) present(key string) (json.RawMessage, bool) {
	v, ok := d.e[key]
	return v, ok && !isNull(v)
}

// str reads a string; any other present value is recorded and reads as "".
func (d *draft) str(key string) string {
	var s string
	if v, ok := d.present(key); ok && json.Unmarshal(v, &s) != nil {
		d.record(key, key+" is not a string")
	}
	return s
}

// strOr reads a string, defaulting (with a note) when there is none.
func (d *draft) strOr(key, def string) string {
	if s := d.str(key); s != "" {
		return s
	}
	d.note(fmt.Sprintf("no %s; set to %s", key, def))
	return def
}

// count reads a whole number ≥ 1 (a JSON number or a digit string); any
// other present value is recorded and reads as 0.
func (d *draft) count(key string) int {
	v, ok := d.present(key)
	if !ok {
		return 0
	}
	if n := intOf(v); n >= 1 {
		return n
	}
	d.record(key, key+" is not a whole number ≥ 1")
	return 0
}

// time reads the first usable time among keys, in TimeLayout, or "".
// Unusable values, a fraction of a second and a later key that disagrees are
// recorded.
func (d *draft) time(name string, keys ...string) string {
	got := ""
	for _, k := range keys {
		v := d.str(k)
		if v == "" {
			continue
		}
		t, exact, ok := normTime(v)
		switch {
		case !ok:
			d.record(k, fmt.Sprintf("%s %q is not a time", k, v))
		case got != "":
			if t != got || !exact {
				d.record(k, fmt.Sprintf("%s %q differs from %s %q", k, v, name, got))
			}
		default:
			got = t
			why := fmt.Sprintf("%s %q normalised to UTC seconds", name, v)
			if !exact {
				d.record(k, why)
			} else if t != v {
				d.note(why)
			}
		}
	}
	return got
}

// check records the raw value of key when schema 1's value v does not mean
// the same (fields or entries that had no place were left out).
func (d *draft) check(key string, v any) {
	if !sameJSON(d.e[key], v) {
		d.record(key, key+" holds values schema 1 has no place for; kept what maps")
	}
}

// keys derives the sessionId from the raw branch with the one sanitizer and
// keeps the legacy keys that named its folder.
func (d *draft) keys() error {
	s := &d.s
	oldID, branch := d.str("sessionId"), d.str("branch")
	if s.GitBranch = d.str("gitBranch"); s.GitBranch == "" {
		s.GitBranch = branch
	}
	if s.GitBranch == "" {
		return errors.New("no gitBranch or branch to key it by")
	}
	id, err := KeyFor(s.GitBranch)
	if err != nil {
		return err
	}
	s.SessionID, s.Branch = id, id
	for _, old := range []string{oldID, branch} {
		if old != "" && old != id {
			d.oldKeys = appendUnique(d.oldKeys, old)
		}
	}
	return nil
}

func (d *draft) texts() {
	s := &d.s
	s.Command = d.strOr("command", "unknown")
	s.Description = d.str("description")
	s.Status = d.strOr("status", "completed")
	s.PhaseLabel = Str(d.str("phaseLabel"))
	s.Scope = d.str("scope")
	if s.JiraTicket = Str(d.str("jiraTicket")); s.JiraTicket != nil && !JiraKey.MatchString(*s.JiraTicket) {
		d.record("jiraTicket", fmt.Sprintf("jiraTicket %q is not a Jira key", *s.JiraTicket))
		s.JiraTicket = nil
	}
	s.PlanFile = Str(d.str("planFile"))
	switch plan := d.str("planPath"); {
	case plan == "" || plan == Deref(s.PlanFile):
	case s.PlanFile == nil:
		s.PlanFile = &plan
		d.note("planPath kept as planFile")
	default:
		d.record("planPath", "planPath beside planFile")
	}
}

// phase keeps a numeric phase (current_phase first), maps "done", and keeps
// a string phase as the label instead of clobbering an existing label.
func (d *draft) phase() {
	s := &d.s
	raw, has := d.present("phase")
	var text string
	isText := has && json.Unmarshal(raw, &text) == nil
	if isText && text == "" {
		has, isText = false, false
	}
	p, err := ParsePhase(text)
	if n := d.count("current_phase"); n >= 1 {
		s.Phase = Phase{N: n}
		switch {
		case !has, isText && err == nil && p == s.Phase, !isText && intOf(raw) == n:
		case isText && err != nil:
			if !d.useLabel(text) {
				d.record("phase", fmt.Sprintf("string phase %q differs from phaseLabel", text))
			}
		default:
			d.record("phase", fmt.Sprintf("phase differs from current_phase %d", n))
		}
		return
	}
	switch {
	case !has:
		s.Phase = Phase{Done: true}
		d.note("no phase; set to done")
	case isText && err == nil:
		s.Phase = p
	case isText:
		s.Phase = Phase{Done: true}
		if d.useLabel(text) {
			d.note(fmt.Sprintf("string phase %q kept as phaseLabel; phase set to done", text))
		} else {
			d.dropped["phase"] = raw
			d.note(fmt.Sprintf("string phase %q recorded in the journal; phase set to done", text))
		}
	case intOf(raw) >= 1:
		s.Phase = Phase{N: intOf(raw)}
	default:
		s.Phase = Phase{Done: true}
		d.record("phase", "phase is neither done, a label nor a whole number ≥ 1; set to done")
	}
}

// useLabel keeps a string phase as the label; it reports false when the
// entry has a different label already.
func (d *draft) useLabel(label string) bool {
	if d.s.PhaseLabel == nil {
		d.s.PhaseLabel = &label
	}
	return *d.s.PhaseLabel == label
}

// total reads totalPhases (or total_phases) and raises it to the phase.
func (d *draft) total() {
	s := &d.s
	key, n := "totalPhases", d.count("totalPhases")
	if alt := d.count("total_phases"); n == 0 {
		key, n = "total_phases", alt
	} else if alt != 0 && alt != n {
		d.record("total_phases", fmt.Sprintf("total_phases %d differs from totalPhases %d", alt, n))
	}
	s.TotalPhases = n
	if n < 1 || (!s.Phase.Done && s.Phase.N > n) {
		s.TotalPhases = max(s.Phase.N, 1)
		why := fmt.Sprintf("totalPhases %d is missing or below the phase; set to %d", n, s.TotalPhases)
		if n > 0 {
			d.record(key, why)
		} else {
			d.note(why)
		}
	}
}

// times reads the recorded times; each stands in for the other when one is
// missing. An entry without either keeps them empty until after the merge,
// so that it never wins over a dated duplicate.
func (d *draft) times() {
	s := &d.s
	s.StartedAt = d.time("startedAt", "startedAt", "created_at")
	s.UpdatedAt = d.time("updatedAt", "updatedAt", "updated_at")
	if s.StartedAt == "" {
		s.StartedAt = s.UpdatedAt
	}
	if s.UpdatedAt == "" {
		s.UpdatedAt = s.StartedAt
	}
}

// lists reads linkedPRs, repos, perRepoState and gate.
func (d *draft) lists() {
	s := &d.s
	s.LinkedPRs = []PR{}
	if raw, ok := d.present("linkedPRs"); ok {
		if json.Unmarshal(raw, &s.LinkedPRs) != nil {
			s.LinkedPRs = []PR{}
			d.record("linkedPRs", "linkedPRs has an unknown shape")
		} else {
			s.LinkedPRs = unionPRs(nil, s.LinkedPRs)
			d.check("linkedPRs", s.LinkedPRs)
		}
	}
	if raw, ok := d.present("repos"); ok {
		var objs []struct {
			Name string `json:"name"`
		}
		switch {
		case json.Unmarshal(raw, &s.Repos) == nil:
			d.check("repos", s.Repos)
		case json.Unmarshal(raw, &objs) == nil:
			s.Repos = nil
			for _, o := range objs {
				s.Repos = append(s.Repos, o.Name)
			}
			d.record("repos", "repos listed as objects; kept their names")
		default:
			s.Repos = nil
			d.record("repos", "repos has an unknown shape")
		}
	}
	if raw, ok := d.present("perRepoState"); ok {
		if json.Unmarshal(raw, &s.PerRepoState) != nil {
			s.PerRepoState = nil
			d.record("perRepoState", "perRepoState has an unknown shape")
		} else {
			d.check("perRepoState", s.PerRepoState)
		}
	}
	if raw, ok := d.present("gate"); ok {
		if s.Gate = new(Gate); json.Unmarshal(raw, s.Gate) != nil {
			s.Gate = nil
			d.record("gate", "gate has an unknown shape")
		} else {
			d.check("gate", s.Gate)
		}
	}
}

// finish completes the merged entry s of which d is the winner: it stamps
// the times no entry recorded, and drops a gate that alone keeps s from
// validating.
func (d *draft) finish(s *Session, now string) {
	if s.UpdatedAt == "" {
		s.StartedAt, s.UpdatedAt = now, now
		d.note("no usable startedAt; set to " + now)
		d.note("no usable updatedAt; set to " + now)
	}
	if s.Gate == nil {
		return
	}
	if err := s.Validate(); err != nil {
		without := *s
		without.Gate = nil
		if without.Validate() == nil {
			s.Gate = nil
			d.record("gate", fmt.Sprintf("gate is not valid (%v)", err))
		}
	}
}

func unionPRs(a, b []PR) []PR {
	out := append([]PR{}, a...)
	for _, pr := range b {
		if !slices.ContainsFunc(out, func(have PR) bool { return have.URL == pr.URL }) {
			out = append(out, pr)
		}
	}
	return out
}

// normTime parses an RFC 3339 time and renders it in TimeLayout (UTC, whole
// seconds); exact is false when that drops a fraction of a second.
func normTime(v string) (out string, exact, ok bool) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return "", false, false
	}
	out = t.UTC().Format(TimeLayout)
	back, err := time.Parse(TimeLayout, out) // fails for a year outside 0000..9999
	return out, back.Equal(t), err == nil
}

// sameJSON reports whether v, marshalled, means the same as raw. Null object
// members count as absent: schema 1 writes unset optional fields as null.
func sameJSON(raw json.RawMessage, v any) bool {
	b, err := json.Marshal(v)
	var x, y any
	if err != nil || json.Unmarshal(raw, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(withoutNulls(x), withoutNulls(y))
}

func withoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = withoutNulls(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = withoutNulls(e)
		}
	}
	return v
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// intOf returns the raw value as an int when it is a whole JSON number or a
// string of digits, else 0.
func intOf(raw json.RawMessage) int {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = []byte(s)
	}
	n, _ := strconv.Atoi(string(raw))
	return n
}

func appendUnique(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	list = append(list, v)
	sort.Strings(list)
	return list
}
