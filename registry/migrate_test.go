package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// legacyEntry is a minimal pre-schema-1 entry: a registry holding it has no
// "schema", so Parse sends it to migrate.
func legacyEntry() map[string]any {
	return map[string]any{
		"branch":      "feat-x",
		"gitBranch":   "feat/x",
		"command":     "flow",
		"status":      "in_progress",
		"phase":       1,
		"totalPhases": 3,
		"startedAt":   "2026-01-02T15:04:05Z",
		"updatedAt":   "2026-01-02T15:04:05Z",
	}
}

// legacyDoc wraps entries in a registry without a schema field.
func legacyDoc(t testing.TB, entries ...map[string]any) []byte {
	t.Helper()
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = e
	}
	return mustJSON(t, map[string]any{"sessions": list})
}

// legacyWith returns a one-entry legacy registry changed by mods.
func legacyWith(t testing.TB, mods ...func(map[string]any)) []byte {
	t.Helper()
	e := legacyEntry()
	for _, m := range mods {
		m(e)
	}
	return legacyDoc(t, e)
}

// mustMigrate migrates data and checks the invariants every successful
// migration must hold.
func mustMigrate(t *testing.T, data []byte) *Migration {
	t.Helper()
	m, err := Migrate(data, "2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatalf("Migrate(%s) = %v", data, err)
	}
	checkMigration(t, m)
	return m
}

func checkMigration(t testing.TB, m *Migration) {
	t.Helper()
	if m.Registry == nil {
		t.Fatal("Migrate returned no registry")
	}
	if m.Registry.Schema != Schema {
		t.Fatalf("migrated schema = %d", m.Registry.Schema)
	}
	if err := m.Registry.Validate(); err != nil {
		t.Fatalf("migrated registry does not validate: %v", err)
	}
	out, err := m.Registry.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal(migrated)) = %v\n%s", err, out)
	}
	if !bytes.Equal(mustMarshal(t, r), out) {
		t.Fatalf("migrated registry does not survive Marshal/Parse:\n%s", out)
	}
	again, err := Migrate(out, "2026-01-01T00:00:00Z")
	if err != nil || again.Changed {
		t.Fatalf("migrating the result again: changed=%v, err=%v", again != nil && again.Changed, err)
	}
	ids := map[string]bool{}
	for _, s := range m.Registry.Sessions {
		ids[s.SessionID] = true
	}
	for id := range m.Dropped {
		if !ids[id] {
			t.Errorf("Dropped names %q, which is not a migrated session", id)
		}
	}
	for id, olds := range m.Folders {
		if !ids[id] {
			t.Errorf("Folders names %q, which is not a migrated session", id)
		}
		for _, o := range olds {
			if o == id {
				t.Errorf("Folders[%q] lists the new key itself", id)
			}
		}
	}
	for _, n := range m.Notes {
		if n == "" || strings.ContainsAny(n, "\r\n") {
			t.Errorf("note %q is not one non-empty line", n)
		}
	}
}

func mustMarshal(t testing.TB, r *Registry) []byte {
	t.Helper()
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasNote(m *Migration, substr string) bool {
	for _, n := range m.Notes {
		if strings.Contains(n, substr) {
			return true
		}
	}
	return false
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// leaves returns every string and number leaf of a JSON text, typed ("s:x",
// "n:3"), keys excluded.
func leaves(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, "s:"+x)
		case json.Number:
			out = append(out, "n:"+x.String())
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// lost lists the leaf values of the input that appear nowhere in what the
// migration keeps: the registry, Dropped, DroppedTop and Folders. Values
// listed in except (typed like leaves) are known, lossless rewrites.
func lost(t testing.TB, input []byte, m *Migration, except ...string) []string {
	t.Helper()
	kept := map[string]bool{}
	add := func(b []byte) {
		for _, l := range leaves(b) {
			kept[l] = true
		}
	}
	add(mustMarshal(t, m.Registry))
	for _, d := range m.Dropped {
		for _, raw := range d {
			add(raw)
		}
	}
	for _, raw := range m.DroppedTop {
		add(raw)
	}
	for _, olds := range m.Folders {
		for _, o := range olds {
			kept["s:"+o] = true
		}
	}
	for _, e := range except {
		kept[e] = true
	}
	var missing []string
	for _, l := range leaves(input) {
		if !kept[l] {
			missing = append(missing, l)
		}
	}
	sort.Strings(missing)
	return missing
}

func TestMigrateGolden(t *testing.T) {
	in := readTestdata(t, "legacy.json")
	want := readTestdata(t, "legacy.migrated.json")

	m := mustMigrate(t, in)
	if !m.Changed {
		t.Fatal("Changed = false for a legacy registry")
	}
	got := mustMarshal(t, m.Registry)
	if !bytes.Equal(got, want) {
		t.Fatalf("Migrate(legacy.json) differs from legacy.migrated.json:\n--- got\n%s\n--- want\n%s", got, want)
	}

	// Every value of the input is kept somewhere. Two rewrites are by
	// design: the time with an offset is the same instant in UTC, and the
	// merged fix-qa session starts at the earlier of its two startedAt.
	if l := lost(t, in, m, "s:2025-12-01T10:00:00+01:00", "s:2025-10-01T08:00:00Z"); len(l) > 0 {
		t.Errorf("values lost by the migration: %q", l)
	}

	wantTop := map[string]string{"schemaVersion": `2`, "workspaceName": `"acme"`}
	if len(m.DroppedTop) != len(wantTop) {
		t.Errorf("DroppedTop = %s", mustJSON(t, m.DroppedTop))
	}
	for k, v := range wantTop {
		if !jsonEqual(m.DroppedTop[k], []byte(v)) {
			t.Errorf("DroppedTop[%q] = %s, want %s", k, m.DroppedTop[k], v)
		}
	}

	wantDropped := map[string][]string{
		"feat-sso-login": {"branchSanitized", "session_id"},
		"fix-qa":         {"context", "mergedEntries", "startedAt"},
		"feat-billing":   {"repos", "workspaceRoot"},
	}
	if len(m.Dropped) != len(wantDropped) {
		t.Errorf("Dropped has sessions %v", keysOf(m.Dropped))
	}
	for id, keys := range wantDropped {
		if got := keysOf(m.Dropped[id]); !reflect.DeepEqual(got, keys) {
			t.Errorf("Dropped[%q] keys = %v, want %v", id, got, keys)
		}
	}
	if !jsonEqual(m.Dropped["feat-sso-login"]["session_id"], []byte(`"01HZX3K9Q6ZB7T2W8M4N5P6R7S"`)) {
		t.Errorf("session_id recorded as %s", m.Dropped["feat-sso-login"]["session_id"])
	}
	losers := mergedEntries(t, m, "fix-qa")
	if len(losers) != 1 || losers[0]["status"] != "in_progress" || losers[0]["phase"] != 3.0 || losers[0]["phaseLabel"] != "browser" || losers[0]["updatedAt"] != "2025-10-01T12:00:00Z" {
		t.Errorf("mergedEntries is not the older duplicate: %v", losers)
	}
	if !jsonEqual(m.Dropped["fix-qa"]["startedAt"], []byte(`"2025-10-01T08:00:00Z"`)) {
		t.Errorf("the winner's later startedAt recorded as %s", m.Dropped["fix-qa"]["startedAt"])
	}
	var repos []map[string]string
	if err := json.Unmarshal(m.Dropped["feat-billing"]["repos"], &repos); err != nil || len(repos) != 2 || repos[1]["remote"] != "git@github.com:acme/api.git" {
		t.Errorf("repos recorded as %s (%v)", m.Dropped["feat-billing"]["repos"], err)
	}

	if want := map[string][]string{"feat-sso-login": {"feat-sso login"}}; !reflect.DeepEqual(m.Folders, want) {
		t.Errorf("Folders = %v, want %v", m.Folders, want)
	}

	for _, n := range []string{
		`top-level key "schemaVersion"`,
		`top-level key "workspaceName"`,
		`feat-sso-login: key "session_id"`,
		`feat-sso-login: key "branchSanitized"`,
		"feat-sso-login: planPath kept as planFile",
		`fix-qa: key "context"`,
		"fix-qa: merged a duplicate entry",
		`feat-billing: key "workspaceRoot"`,
		"feat-billing: repos listed as objects",
		`feat-billing: startedAt "2025-12-01T10:00:00+01:00" normalised`,
		"chore-deps: totalPhases 0 is missing",
	} {
		if !hasNote(m, n) {
			t.Errorf("no note containing %q in:\n%s", n, strings.Join(m.Notes, "\n"))
		}
	}

	// The golden file is itself a valid registry that migrate leaves alone.
	if _, err := Parse(want); err != nil {
		t.Errorf("Parse(legacy.migrated.json) = %v", err)
	}
}

// mergedEntries decodes the raw legacy objects of the duplicates merged
// into session id.
func mergedEntries(t testing.TB, m *Migration, id string) []map[string]any {
	t.Helper()
	var losers []map[string]any
	if err := json.Unmarshal(m.Dropped[id]["mergedEntries"], &losers); err != nil {
		t.Fatalf("mergedEntries of %q = %s: %v", id, m.Dropped[id]["mergedEntries"], err)
	}
	return losers
}

func keysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestMigrateUnchanged(t *testing.T) {
	for _, name := range []string{"full.json", "legacy.migrated.json"} {
		t.Run(name, func(t *testing.T) {
			in := readTestdata(t, name)
			m := mustMigrate(t, in)
			if m.Changed {
				t.Fatal("Changed = true for a valid schema-1 registry")
			}
			if len(m.Notes) != 0 || len(m.Dropped) != 0 || len(m.DroppedTop) != 0 || len(m.Folders) != 0 {
				t.Fatalf("unchanged migration reports %+v", m)
			}
			want, _ := Parse(in)
			if !reflect.DeepEqual(m.Registry, want) {
				t.Fatal("unchanged migration altered the registry")
			}
			if !bytes.Equal(mustMarshal(t, m.Registry), in) {
				t.Fatal("unchanged migration does not marshal to the input")
			}
		})
	}
	m := mustMigrate(t, []byte(`{"schema":1,"sessions":[]}`))
	if m.Changed || len(m.Registry.Sessions) != 0 {
		t.Fatalf("empty schema-1 registry: %+v", m)
	}
}

// TestMigratePhaseDoneKeepsLabel is B6: "done" + "qa-complete" must not
// become label "done".
func TestMigratePhaseDoneKeepsLabel(t *testing.T) {
	m := mustMigrate(t, legacyWith(t, set("phase", "done"), set("phaseLabel", "qa-complete")))
	s := m.Registry.Sessions[0]
	if !s.Phase.Done || Deref(s.PhaseLabel) != "qa-complete" {
		t.Fatalf("phase %v label %q, want done / qa-complete", s.Phase, Deref(s.PhaseLabel))
	}
	if _, ok := m.Dropped[s.SessionID]["phase"]; ok {
		t.Fatal(`"done" recorded as a dropped phase`)
	}
}

func TestMigrateVocabulary(t *testing.T) {
	type want struct {
		phase   Phase
		label   string
		total   int
		started string
		updated string
	}
	const t1, t2 = "2025-11-03T09:12:44Z", "2025-11-04T17:30:00Z"
	tests := []struct {
		name    string
		mods    []func(map[string]any)
		want    want
		note    string // a note that must be present
		dropped string // a key that must be in Dropped, with its raw value
	}{
		{
			name: "snake case fields",
			mods: []func(map[string]any){del("phase"), del("totalPhases"), del("startedAt"), del("updatedAt"),
				set("current_phase", 3), set("total_phases", 5), set("created_at", t1), set("updated_at", t2)},
			want: want{Phase{N: 3}, "", 5, t1, t2},
		},
		{
			name: "current_phase as a digit string",
			mods: []func(map[string]any){del("phase"), set("current_phase", "2")},
			want: want{Phase{N: 2}, "", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
		},
		{
			name: "string phase with current_phase",
			mods: []func(map[string]any){set("phase", "implement"), set("current_phase", 5), set("totalPhases", 8)},
			want: want{Phase{N: 5}, "implement", 8, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
		},
		{
			name:    "string phase with current_phase and a different label",
			mods:    []func(map[string]any){set("phase", "implement"), set("current_phase", 2), set("phaseLabel", "impl")},
			want:    want{Phase{N: 2}, "impl", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note:    `string phase "implement" differs from phaseLabel`,
			dropped: "phase",
		},
		{
			name: "string phase with current_phase and the same label",
			mods: []func(map[string]any){set("phase", "implement"), set("current_phase", 2), set("phaseLabel", "implement")},
			want: want{Phase{N: 2}, "implement", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
		},
		{
			name: "string phase without current_phase",
			mods: []func(map[string]any){set("phase", "implement")},
			want: want{Phase{Done: true}, "implement", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note: `string phase "implement" kept as phaseLabel; phase set to done`,
		},
		{
			name:    "string phase without current_phase beside a label",
			mods:    []func(map[string]any){set("phase", "implement"), set("phaseLabel", "x")},
			want:    want{Phase{Done: true}, "x", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note:    `string phase "implement" recorded`,
			dropped: "phase",
		},
		{
			name: "phase 5abc is kept as the label",
			mods: []func(map[string]any){set("phase", "5abc"), set("totalPhases", 6)},
			want: want{Phase{Done: true}, "5abc", 6, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
		},
		{
			name: "digit-string phase",
			mods: []func(map[string]any){set("phase", "2")},
			want: want{Phase{N: 2}, "", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
		},
		{
			name: "no phase",
			mods: []func(map[string]any){del("phase")},
			want: want{Phase{Done: true}, "", 3, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note: "no phase; set to done",
		},
		{
			name: "missing totalPhases takes the phase",
			mods: []func(map[string]any){set("phase", 4), del("totalPhases")},
			want: want{Phase{N: 4}, "", 4, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note: "totalPhases 0 is missing or below the phase; set to 4",
		},
		{
			name: "missing totalPhases with phase done",
			mods: []func(map[string]any){set("phase", "done"), del("totalPhases")},
			want: want{Phase{Done: true}, "", 1, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note: "totalPhases 0 is missing or below the phase; set to 1",
		},
		{
			name: "totalPhases below the phase",
			mods: []func(map[string]any){set("phase", 4), set("totalPhases", 2)},
			want: want{Phase{N: 4}, "", 4, "2026-01-02T15:04:05Z", "2026-01-02T15:04:05Z"},
			note: "totalPhases 2 is missing or below the phase; set to 4",
		},
		{
			name: "only updated_at",
			mods: []func(map[string]any){del("startedAt"), del("updatedAt"), set("updated_at", t2)},
			want: want{Phase{N: 1}, "", 3, t2, t2},
		},
		{
			name: "only created_at",
			mods: []func(map[string]any){del("startedAt"), del("updatedAt"), set("created_at", t1)},
			want: want{Phase{N: 1}, "", 3, t1, t1},
		},
		{
			name: "times with an offset and fractions",
			mods: []func(map[string]any){set("startedAt", "2025-11-03T10:12:44+01:00"), set("updatedAt", "2025-11-04T12:30:00.75-05:00")},
			want: want{Phase{N: 1}, "", 3, t1, t2},
			note: `updatedAt "2025-11-04T12:30:00.75-05:00" normalised to UTC seconds`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := legacyWith(t, tt.mods...)
			m := mustMigrate(t, in)
			if len(m.Registry.Sessions) != 1 {
				t.Fatalf("%d sessions", len(m.Registry.Sessions))
			}
			s := m.Registry.Sessions[0]
			got := want{s.Phase, Deref(s.PhaseLabel), s.TotalPhases, s.StartedAt, s.UpdatedAt}
			if got != tt.want {
				t.Errorf("migrated to %+v, want %+v", got, tt.want)
			}
			if tt.note != "" && !hasNote(m, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, m.Notes)
			}
			if tt.dropped != "" {
				var doc struct {
					Sessions []map[string]json.RawMessage `json:"sessions"`
				}
				if err := json.Unmarshal(in, &doc); err != nil {
					t.Fatal(err)
				}
				e := doc.Sessions[0]
				if !jsonEqual(m.Dropped[s.SessionID][tt.dropped], e[tt.dropped]) {
					t.Errorf("Dropped[%q] = %s, want %s", tt.dropped, m.Dropped[s.SessionID][tt.dropped], e[tt.dropped])
				}
			}
			// Legacy names never survive into the result.
			out := mustMarshal(t, m.Registry)
			for _, f := range LegacyFields {
				if bytes.Contains(out, []byte(`"`+f+`"`)) {
					t.Errorf("legacy field %q in the output", f)
				}
			}
		})
	}
}

func TestMigrateDefaults(t *testing.T) {
	const now = "2026-07-08T09:10:11Z" // the time Migrate is given
	m, err := Migrate(legacyDoc(t, map[string]any{"gitBranch": "feat/x"}), now)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Registry.Sessions[0]
	if s.Command != "unknown" || s.Status != "completed" || !s.Phase.Done || s.TotalPhases != 1 ||
		s.Description != "" || s.PhaseLabel != nil || s.JiraTicket != nil || s.PlanFile != nil ||
		s.LinkedPRs == nil || len(s.LinkedPRs) != 0 {
		t.Errorf("defaults: %+v", s)
	}
	for name, v := range map[string]string{"startedAt": s.StartedAt, "updatedAt": s.UpdatedAt} {
		if v != now {
			t.Errorf("%s = %q, want the time of the migration, %s", name, v, now)
		}
		if !hasNote(m, "no usable "+name+"; set to "+now) {
			t.Errorf("no note for the missing %s", name)
		}
	}
	for _, n := range []string{"no command; set to unknown", "no status; set to completed", "no phase; set to done"} {
		if !hasNote(m, n) {
			t.Errorf("no note %q in %q", n, m.Notes)
		}
	}
}

func TestMigrateUnlistedKeys(t *testing.T) {
	tests := []struct {
		name      string
		mods      []func(map[string]any)
		key       string // expected in Dropped with its raw value
		note      string
		planFile  string
		unchanged bool // key must NOT be in Dropped
	}{
		{name: "arbitrary key", mods: []func(map[string]any){set("foo", map[string]any{"a": []any{1, "two", nil}})}, key: "foo", note: `key "foo" has no place in schema 1`},
		{name: "null value", mods: []func(map[string]any){set("bar", nil)}, key: "bar", note: `key "bar"`},
		{name: "session_id", mods: []func(map[string]any){set("session_id", "01HZX3K9")}, key: "session_id", note: `key "session_id"`},
		{name: "branchSanitized", mods: []func(map[string]any){set("branchSanitized", "feat-x")}, key: "branchSanitized", note: `key "branchSanitized"`},
		{name: "schemaVersion in an entry", mods: []func(map[string]any){set("schemaVersion", 2)}, key: "schemaVersion", note: `key "schemaVersion"`},
		{name: "workspace-mode context", mods: []func(map[string]any){set("context", "ctx"), set("workspaceRoot", "../..")}, key: "context", note: `key "workspaceRoot"`},
		{name: "planPath without planFile", mods: []func(map[string]any){set("planPath", "docs/plan.md")}, note: "planPath kept as planFile", planFile: "docs/plan.md", key: "planPath", unchanged: true},
		{name: "planPath beside a null planFile", mods: []func(map[string]any){set("planPath", "docs/plan.md"), set("planFile", nil)}, note: "planPath kept as planFile", planFile: "docs/plan.md", key: "planPath", unchanged: true},
		{name: "planPath beside planFile", mods: []func(map[string]any){set("planPath", "old.md"), set("planFile", "new.md")}, key: "planPath", note: "planPath beside planFile", planFile: "new.md"},
		{name: "invalid jira key", mods: []func(map[string]any){set("jiraTicket", "proj-12")}, key: "jiraTicket", note: `jiraTicket "proj-12" is not a Jira key`},
		{name: "linkedPRs of an unknown shape", mods: []func(map[string]any){set("linkedPRs", "https://x/1")}, key: "linkedPRs", note: "linkedPRs has an unknown shape"},
		{name: "repos as objects", mods: []func(map[string]any){set("scope", "workspace"), set("repos", []any{map[string]any{"name": "web", "path": "../web"}})}, key: "repos", note: "repos listed as objects"},
		{name: "perRepoState of an unknown shape", mods: []func(map[string]any){set("perRepoState", []any{"web"})}, key: "perRepoState", note: "perRepoState has an unknown shape"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := legacyEntry()
			for _, mod := range tt.mods {
				mod(e)
			}
			in := legacyDoc(t, e)
			m := mustMigrate(t, in)
			s := m.Registry.Sessions[0]
			raw, ok := m.Dropped[s.SessionID][tt.key]
			switch {
			case tt.unchanged && ok:
				t.Errorf("%q is mapped but also in Dropped", tt.key)
			case !tt.unchanged && !ok:
				t.Errorf("%q not in Dropped: %v", tt.key, keysOf(m.Dropped[s.SessionID]))
			case !tt.unchanged && !jsonEqual(raw, mustJSON(t, e[tt.key])):
				t.Errorf("Dropped[%q] = %s, want %s", tt.key, raw, mustJSON(t, e[tt.key]))
			}
			if !hasNote(m, s.SessionID+": "+strings.TrimPrefix(tt.note, s.SessionID+": ")) {
				t.Errorf("no note %q in %q", tt.note, m.Notes)
			}
			if tt.planFile != "" && Deref(s.PlanFile) != tt.planFile {
				t.Errorf("planFile = %q, want %q", Deref(s.PlanFile), tt.planFile)
			}
			if l := lost(t, in, m); len(l) > 0 {
				t.Errorf("values lost: %q", l)
			}
		})
	}
}

func TestMigrateRepos(t *testing.T) {
	m := mustMigrate(t, legacyWith(t, set("scope", "workspace"), set("repos", []any{
		map[string]any{"name": "web", "path": "../web", "remote": "r1"},
		map[string]any{"name": "api", "path": "../api", "remote": "r2"},
	})))
	s := m.Registry.Sessions[0]
	if !reflect.DeepEqual(s.Repos, []string{"web", "api"}) || s.Scope != "workspace" {
		t.Fatalf("repos %q scope %q", s.Repos, s.Scope)
	}
	m = mustMigrate(t, legacyWith(t, set("scope", "workspace"), set("repos", []any{"web", "api"})))
	if s := m.Registry.Sessions[0]; !reflect.DeepEqual(s.Repos, []string{"web", "api"}) {
		t.Fatalf("string repos became %q", s.Repos)
	}
	if _, ok := m.Dropped["feat-x"]["repos"]; ok {
		t.Fatal("a list of names was recorded as dropped")
	}
}

// TestMigrateSanitizer is B6/B13: the same byte-wise sanitizer as KeyFor,
// and the old '/'-only folder name recorded for the move.
func TestMigrateSanitizer(t *testing.T) {
	tests := []struct {
		name       string
		entry      map[string]any
		wantID     string
		wantBranch string
		wantOld    []string
	}{
		{
			name:       "old '/'-only key with a space",
			entry:      map[string]any{"sessionId": "feat-sso login", "branch": "feat-sso login", "gitBranch": "feat/sso login"},
			wantID:     "feat-sso-login",
			wantBranch: "feat/sso login",
			wantOld:    []string{"feat-sso login"},
		},
		{
			name:       "old key only in branch",
			entry:      map[string]any{"branch": "feat-sso login", "gitBranch": "feat/sso login"},
			wantID:     "feat-sso-login",
			wantBranch: "feat/sso login",
			wantOld:    []string{"feat-sso login"},
		},
		{
			name:       "no raw branch: the old key is all there is",
			entry:      map[string]any{"branch": "feat-sso login"},
			wantID:     "feat-sso-login",
			wantBranch: "feat-sso login",
			wantOld:    []string{"feat-sso login"},
		},
		{
			name:       "unicode (B13)",
			entry:      map[string]any{"branch": "feat-café x", "gitBranch": "feat/café x"},
			wantID:     "feat-caf---x",
			wantBranch: "feat/café x",
			wantOld:    []string{"feat-café x"},
		},
		{
			name:       "old key already right",
			entry:      map[string]any{"sessionId": "feat-x", "branch": "feat-x", "gitBranch": "feat/x"},
			wantID:     "feat-x",
			wantBranch: "feat/x",
		},
		{
			name:       "raw branch only",
			entry:      map[string]any{"gitBranch": "feat/a b"},
			wantID:     "feat-a-b",
			wantBranch: "feat/a b",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := legacyEntry()
			delete(e, "branch")
			delete(e, "gitBranch")
			for k, v := range tt.entry {
				e[k] = v
			}
			m := mustMigrate(t, legacyDoc(t, e))
			s := m.Registry.Sessions[0]
			key, err := KeyFor(tt.wantBranch)
			if err != nil || key != tt.wantID {
				t.Fatalf("test table disagrees with KeyFor(%q) = %q, %v", tt.wantBranch, key, err)
			}
			if s.SessionID != tt.wantID || s.Branch != tt.wantID || s.GitBranch != tt.wantBranch {
				t.Errorf("sessionId %q branch %q gitBranch %q, want %q/%q/%q", s.SessionID, s.Branch, s.GitBranch, tt.wantID, tt.wantID, tt.wantBranch)
			}
			if !reflect.DeepEqual(m.Folders[s.SessionID], tt.wantOld) {
				t.Errorf("Folders[%q] = %q, want %q", s.SessionID, m.Folders[s.SessionID], tt.wantOld)
			}
			// get/phase set find it by either spelling.
			for _, k := range []string{tt.wantBranch, Sanitize(tt.wantBranch)} {
				if m.Registry.Find(k) == nil {
					t.Errorf("Find(%q) = nil after migration", k)
				}
			}
		})
	}
}

func TestMigrateMergesDuplicates(t *testing.T) {
	older := legacyEntry()
	older["description"] = "older"
	older["phase"], older["phaseLabel"] = 2, "red"
	older["startedAt"], older["updatedAt"] = "2025-01-01T00:00:00Z", "2025-01-05T00:00:00Z"
	older["linkedPRs"] = []any{
		map[string]any{"repo": "a/b", "url": "https://x/1", "number": 1},
		map[string]any{"repo": "a/b", "url": "https://x/2", "number": 2, "stackId": "old"},
	}
	older["foo"] = "kept"
	newer := legacyEntry()
	newer["description"] = "newer"
	newer["phase"], newer["phaseLabel"] = 3, "green"
	newer["startedAt"], newer["updatedAt"] = "2025-01-03T00:00:00Z", "2025-01-09T00:00:00Z"
	newer["linkedPRs"] = []any{
		map[string]any{"repo": "a/b", "url": "https://x/2", "number": 2, "stackId": "new"},
		map[string]any{"repo": "a/b", "url": "https://x/3", "number": 3},
	}
	other := legacyEntry()
	other["branch"], other["gitBranch"] = "main", "main"

	var first []byte
	for _, order := range [][]map[string]any{{older, other, newer}, {newer, other, older}} {
		name := fmt.Sprintf("%s first", order[0]["description"])
		t.Run(name, func(t *testing.T) {
			in := legacyDoc(t, order...)
			m := mustMigrate(t, in)
			if len(m.Registry.Sessions) != 2 {
				t.Fatalf("%d sessions, want 2 (duplicates merged)", len(m.Registry.Sessions))
			}
			s := m.Registry.Find("feat-x")
			if s == nil || s != &m.Registry.Sessions[0] {
				t.Fatal("the merged entry is not where the first duplicate was")
			}
			if s.Description != "newer" || s.Phase != (Phase{N: 3}) || Deref(s.PhaseLabel) != "green" || s.UpdatedAt != "2025-01-09T00:00:00Z" {
				t.Errorf("newest did not win: %+v", *s)
			}
			if s.StartedAt != "2025-01-01T00:00:00Z" {
				t.Errorf("startedAt = %q, want the earliest", s.StartedAt)
			}
			var urls []string
			for _, pr := range s.LinkedPRs {
				urls = append(urls, pr.URL)
				if pr.URL == "https://x/2" && Deref(pr.StackID) != "new" {
					t.Errorf("shared PR kept the older fields: %+v", pr)
				}
			}
			sort.Strings(urls)
			if !reflect.DeepEqual(urls, []string{"https://x/1", "https://x/2", "https://x/3"}) {
				t.Errorf("linkedPRs = %q, want the union by URL", urls)
			}
			losers := mergedEntries(t, m, "feat-x")
			if len(losers) != 1 || losers[0]["description"] != "older" || losers[0]["phaseLabel"] != "red" {
				t.Errorf("mergedEntries is not the older entry: %v", losers)
			}
			if len(losers) == 1 && losers[0]["foo"] != "kept" {
				t.Errorf("the loser's unknown key: %v", losers[0]["foo"])
			}
			if !hasNote(m, "feat-x: merged a duplicate entry") {
				t.Errorf("no merge note in %q", m.Notes)
			}
			// The newer entry's later startedAt gives way to the earliest.
			if l := lost(t, in, m, "s:2025-01-03T00:00:00Z"); len(l) > 0 {
				t.Errorf("values lost: %q", l)
			}
			out := mustMarshal(t, m.Registry)
			if first == nil {
				first = out
			} else if !bytes.Equal(first, out) {
				t.Errorf("the merge depends on the order of the duplicates:\n%s\n%s", first, out)
			}
		})
	}
}

// TestMigrateManyDuplicates: with three copies, each loser must be kept;
// Dropped has a single "mergedEntry" slot per session, and a second merge
// overwrites the first loser (and a colliding unknown key) with no trace.
func TestMigrateManyDuplicates(t *testing.T) {
	var entries []map[string]any
	for i, d := range []string{"one", "two", "three"} {
		e := legacyEntry()
		e["description"] = d
		e["foo"] = "foo-" + d
		e["updatedAt"] = fmt.Sprintf("2025-01-0%dT00:00:00Z", i+1)
		entries = append(entries, e)
	}
	in := legacyDoc(t, entries...)
	m := mustMigrate(t, in)
	if len(m.Registry.Sessions) != 1 || m.Registry.Sessions[0].Description != "three" {
		t.Fatalf("merged to %+v", m.Registry.Sessions)
	}
	if l := lost(t, in, m); len(l) > 0 {
		t.Errorf("values lost merging three duplicates: %q", l)
	}
}

// TestMigrateUndatedDuplicateDoesNotWin: an entry without any timestamp is
// stamped "now" before the merge compares updatedAt, so it beats an entry
// with a real, recorded time and the merged session claims it was updated at
// migration time.
func TestMigrateUndatedDuplicateDoesNotWin(t *testing.T) {
	dated := legacyEntry()
	dated["description"] = "dated"
	dated["updatedAt"] = "2025-06-01T00:00:00Z"
	undated := legacyEntry()
	undated["description"] = "undated"
	delete(undated, "startedAt")
	delete(undated, "updatedAt")
	for _, order := range [][]map[string]any{{dated, undated}, {undated, dated}} {
		m := mustMigrate(t, legacyDoc(t, order...))
		s := m.Registry.Sessions[0]
		if s.Description != "dated" || s.UpdatedAt != "2025-06-01T00:00:00Z" {
			t.Errorf("order %s first: merged to description %q updatedAt %q; want the dated entry to win", order[0]["description"], s.Description, s.UpdatedAt)
		}
	}
}

func TestMigrateTopLevel(t *testing.T) {
	tests := []struct {
		name string
		in   string
		top  map[string]string
	}{
		{"schemaVersion instead of schema", `{"schemaVersion":2,"sessions":[]}`, map[string]string{"schemaVersion": "2"}},
		{"schemaVersion beside schema 1 (B6)", `{"schema":1,"schemaVersion":2,"sessions":[]}`, map[string]string{"schemaVersion": "2"}},
		{"workspace-mode keys", `{"schemaVersion":2,"context":{"a":1},"workspaceName":"w","sessions":[]}`, map[string]string{"schemaVersion": "2", "context": `{"a":1}`, "workspaceName": `"w"`}},
		{"installer seed without schema", `{"sessions": []}`, map[string]string{}},
		{"no sessions key", `{"schemaVersion":1}`, map[string]string{"schemaVersion": "1"}},
		{"null sessions", `{"sessions":null}`, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustMigrate(t, []byte(tt.in))
			if !m.Changed {
				t.Fatal("Changed = false")
			}
			out := mustMarshal(t, m.Registry)
			if want := "{\n  \"schema\": 1,\n  \"sessions\": []\n}\n"; string(out) != want {
				t.Errorf("migrated to %s", out)
			}
			if len(m.DroppedTop) != len(tt.top) {
				t.Errorf("DroppedTop = %s, want %v", mustJSON(t, m.DroppedTop), tt.top)
			}
			for k, v := range tt.top {
				if !jsonEqual(m.DroppedTop[k], []byte(v)) {
					t.Errorf("DroppedTop[%q] = %s, want %s", k, m.DroppedTop[k], v)
				}
				if !hasNote(m, fmt.Sprintf("top-level key %q", k)) {
					t.Errorf("no note for %q in %q", k, m.Notes)
				}
			}
		})
	}
}

func TestMigrateRefuses(t *testing.T) {
	collide := legacyEntry()
	collide["branch"], collide["gitBranch"] = "a-b", "a-b"
	slash := legacyEntry()
	slash["branch"], slash["gitBranch"] = "a-b", "a/b"

	tests := []struct {
		name    string
		in      []byte
		problem Problem
		fault   string
	}{
		{"schema 2", []byte(`{"schema":2,"sessions":[]}`), Newer, "schema 2"},
		{"schema 2 with legacy entries", []byte(`{"schema":2,"sessions":[{"session_id":"x","current_phase":1}]}`), Newer, ""},
		{"schema 3 with unknown keys", []byte(`{"schema":3,"sessions":[],"shards":[1]}`), Newer, ""},
		{"two branches on one sessionId", legacyDoc(t, slash, collide), Collision, `"a/b" and "a-b"`},
		{"two branches on one sessionId, reversed", legacyDoc(t, collide, slash), Collision, `"a-b" and "a/b"`},
		{"entry without a branch", legacyWith(t, del("branch"), del("gitBranch")), BadEntry, "no gitBranch or branch"},
		{"entry with empty branches", legacyWith(t, set("branch", ""), set("gitBranch", "")), BadEntry, "no gitBranch or branch"},
		{"entry with non-string branches", legacyWith(t, set("branch", 5), set("gitBranch", nil)), BadEntry, "no gitBranch or branch"},
		{"traversal branch (B12)", legacyWith(t, set("branch", ".."), set("gitBranch", "..")), BadEntry, "traversal"},
		{"leading-dot branch", legacyWith(t, set("gitBranch", "../x")), BadEntry, "dot"},
		{"reserved branch (B12)", legacyWith(t, set("branch", "knowledge"), set("gitBranch", "knowledge")), BadEntry, "reserved"},
		{"branch over 200 bytes", legacyWith(t, set("gitBranch", strings.Repeat("b", 201))), BadEntry, "201 bytes"},
		{"null entry", []byte(`{"sessions":[null]}`), BadEntry, "no gitBranch or branch"},
		{"status outside the enum", legacyWith(t, set("status", "active")), BadEntry, "status"},
		{"multi-line label", legacyWith(t, set("phaseLabel", "a\nb")), BadEntry, "phaseLabel"},
		{"description over 120 characters", legacyWith(t, set("description", strings.Repeat("d", 121))), BadEntry, "description"},
		{"PR without url", legacyWith(t, set("linkedPRs", []any{map[string]any{"repo": "a"}})), BadEntry, "url"},
		{"scope outside the enum", legacyWith(t, set("scope", "repo")), BadEntry, "scope"},
		{"not JSON", []byte(`{"sessions":`), Garbled, ""},
		{"empty input", []byte(``), Garbled, ""},
		{"array", []byte(`[]`), NotObject, "not a JSON object"},
		{"string", []byte(`"x"`), NotObject, "not a JSON object"},
		{"sessions is an object", []byte(`{"sessions":{}}`), BadSessions, "sessions"},
		{"sessions holds numbers", []byte(`{"sessions":[1]}`), BadSessions, "sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Migrate(tt.in, "2026-01-01T00:00:00Z")
			if err == nil {
				t.Fatalf("Migrate(%s) succeeded: %s", tt.in, mustMarshal(t, m.Registry))
			}
			if m != nil {
				t.Errorf("a refused migration returned %+v", m)
			}
			ie := wantInvalid(t, err, tt.problem)
			if tt.fault != "" && !strings.Contains(ie.Error(), tt.fault) {
				t.Errorf("message %q does not mention %q", ie.Error(), tt.fault)
			}
			if tt.problem == anyProblem && ie.Problem == Damaged {
				t.Errorf("a refused migration sends the user back to doctor: %v", err)
			}
		})
	}
}

// TestMigrateRefusesNewerSchemaEvenIfMalformed: Parse reports a duplicate
// key or invalid UTF-8 (strictjson.Check) before it looks at the schema, so
// Migrate never sees "upgrade orc-state" and rewrites a schema-2 registry as
// schema 1, dropping "schema": 2 and resolving the duplicate by last-wins.
func TestMigrateRefusesNewerSchemaEvenIfMalformed(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"duplicate key", []byte(`{"schema":2,"sessions":[],"index":1,"index":2}`)},
		{"invalid UTF-8", []byte("{\"schema\":2,\"sessions\":[],\"note\":\"caf\xe9\"}")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Migrate(tt.in, "2026-01-01T00:00:00Z")
			if err == nil {
				t.Fatalf("Migrate downgraded a schema-2 registry to %s", mustMarshal(t, m.Registry))
			}
			wantInvalid(t, err, Newer)
		})
	}
}

// TestMigrateKeepsGate: "gate" is marked consumed but never read, so a
// registry that goes through migrate (a missing schema, one legacy entry, or
// duplicates being merged) loses every session's verdicts and retry counts,
// without a note.
func TestMigrateKeepsGate(t *testing.T) {
	gate := map[string]any{
		"verdicts": []any{map[string]any{"phase": 1, "verdict": "changes_requested", "reviewer": "bob", "note": "n", "at": "2026-01-02T15:04:05Z"}},
		"retries":  map[string]any{"1": 2},
	}
	in := legacyWith(t, set("gate", gate))
	m := mustMigrate(t, in)
	s := m.Registry.Sessions[0]
	_, dropped := m.Dropped[s.SessionID]["gate"]
	if s.Gate == nil && !dropped {
		t.Fatalf("gate vanished: not in the entry, not in Dropped, notes %q", m.Notes)
	}
	if s.Gate != nil && (len(s.Gate.Verdicts) != 1 || s.Gate.Verdicts[0].Reviewer != "bob" || s.Gate.Retries["1"] != 2) {
		t.Errorf("gate migrated as %+v", s.Gate)
	}
}

// TestMigrateRecordsUnusableValues: docs/protocol.md §5 says keys migrate cannot map
// are listed and recorded. A mapped key whose value has the wrong type or an
// unusable form is replaced by a default instead, and its value is lost.
func TestMigrateRecordsUnusableValues(t *testing.T) {
	tests := []struct {
		key string
		val any
	}{
		{"command", 5},
		{"description", 42},
		{"status", 3},
		{"phase", 3.5},
		{"phase", 0},
		{"current_phase", "five"},
		{"phaseLabel", 7},
		{"totalPhases", "many"},
		{"jiraTicket", 12},
		{"planFile", true},
		{"startedAt", "last tuesday"},
		{"updatedAt", "yesterday"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s=%v", tt.key, tt.val), func(t *testing.T) {
			in := legacyWith(t, set(tt.key, tt.val))
			m, err := Migrate(in, "2026-01-01T00:00:00Z")
			if err != nil {
				return // refusing is fine: nothing is lost
			}
			checkMigration(t, m)
			raw, ok := m.Dropped[m.Registry.Sessions[0].SessionID][tt.key]
			if !ok || !jsonEqual(raw, mustJSON(t, tt.val)) {
				t.Errorf("%s = %s was replaced and not recorded (Dropped %v; notes %q)", tt.key, mustJSON(t, tt.val), keysOf(m.Dropped[m.Registry.Sessions[0].SessionID]), m.Notes)
			}
		})
	}
}

// TestMigrateKeepsNestedFields: linkedPRs and perRepoState are decoded
// leniently, so fields the schema lacks vanish, and a second PR with an
// already-seen URL is deduplicated away, all without a record.
func TestMigrateKeepsNestedFields(t *testing.T) {
	tests := []struct {
		name string
		mod  func(map[string]any)
	}{
		{"extra PR field", set("linkedPRs", []any{map[string]any{"repo": "a/b", "url": "https://x/1", "number": 1, "title": "Add SSO"}})},
		{"PR listed twice with different fields", set("linkedPRs", []any{
			map[string]any{"repo": "a/b", "url": "https://x/1", "number": 1},
			map[string]any{"repo": "a/b", "url": "https://x/1", "number": 1, "stackId": "s-7"},
		})},
		{"snake-case perRepoState fields", set("perRepoState", map[string]any{"web": map[string]any{"repoPath": "../web", "branch": "feat/x", "current_slice": 3, "pr_url": "https://x/9"}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := legacyWith(t, tt.mod)
			m, err := Migrate(in, "2026-01-01T00:00:00Z")
			if err != nil {
				return // refusing is fine: nothing is lost
			}
			checkMigration(t, m)
			if l := lost(t, in, m); len(l) > 0 {
				t.Errorf("values lost: %q (notes %q)", l, m.Notes)
			}
		})
	}
}

// TestMigrateDuplicateJSONKeys: Migrate decodes with encoding/json, which
// keeps the last of two equal keys; the first value disappears silently.
func TestMigrateDuplicateJSONKeys(t *testing.T) {
	in := []byte(`{"sessions":[{"gitBranch":"feat/x","command":"flow","status":"paused","status":"completed","description":"first","description":"second","phase":1,"totalPhases":2,"startedAt":"2026-01-02T15:04:05Z","updatedAt":"2026-01-02T15:04:05Z"}]}`)
	m, err := Migrate(in, "2026-01-01T00:00:00Z")
	if err != nil {
		wantInvalid(t, err, anyProblem)
		return // refusing is fine
	}
	if l := lost(t, in, m); len(l) > 0 {
		t.Errorf("duplicate keys resolved silently; lost %q", l)
	}
}

func TestMigrateErrorType(t *testing.T) {
	_, err := Migrate([]byte(`{"schema":2,"sessions":[]}`), "2026-01-01T00:00:00Z")
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("Migrate error is %T", err)
	}
}

// TestMigrateRecordsConflicts: a value that schema 1 cannot keep as it was
// (a disagreeing alias, a fraction of a second, an invalid gate, extra gate
// fields) is recorded under its own key, with a note, and nothing is lost.
func TestMigrateRecordsConflicts(t *testing.T) {
	tests := []struct {
		name string
		mods []func(map[string]any)
		key  string
		note string
	}{
		{"updated_at beside a different updatedAt", []func(map[string]any){set("updated_at", "2025-01-01T00:00:00Z")}, "updated_at", `updated_at "2025-01-01T00:00:00Z" differs from updatedAt`},
		{"created_at beside a different startedAt", []func(map[string]any){set("created_at", "2025-01-01T00:00:00Z")}, "created_at", "differs from startedAt"},
		{"total_phases beside a different totalPhases", []func(map[string]any){set("total_phases", 7)}, "total_phases", "total_phases 7 differs from totalPhases 3"},
		{"totalPhases below the phase", []func(map[string]any){set("phase", 4), set("totalPhases", 2)}, "totalPhases", "totalPhases 2 is missing or below the phase"},
		{"number phase beside a different current_phase", []func(map[string]any){set("phase", 1), set("current_phase", 2)}, "phase", "phase differs from current_phase 2"},
		{"done beside current_phase", []func(map[string]any){set("phase", "done"), set("current_phase", 2)}, "phase", "phase differs from current_phase 2"},
		{"fraction of a second", []func(map[string]any){set("updatedAt", "2026-01-02T15:04:05.5Z")}, "updatedAt", `updatedAt "2026-01-02T15:04:05.5Z" normalised to UTC seconds`},
		{"time past year 9999 in UTC", []func(map[string]any){set("updatedAt", "9999-12-31T23:00:00-05:00")}, "updatedAt", "is not a time"},
		{"gate with an unknown verdict", []func(map[string]any){set("gate", map[string]any{"verdicts": []any{map[string]any{"phase": 1, "verdict": "maybe", "at": "2026-01-02T15:04:05Z"}}})}, "gate", "gate is not valid"},
		{"gate with an extra field", []func(map[string]any){set("gate", map[string]any{"verdicts": []any{}, "retries": map[string]any{}, "owner": "ann"})}, "gate", "gate holds values schema 1 has no place for"},
		{"gate of an unknown shape", []func(map[string]any){set("gate", []any{"approved"})}, "gate", "gate has an unknown shape"},
		{"repos of an unknown shape", []func(map[string]any){set("scope", "workspace"), set("repos", map[string]any{"web": 1})}, "repos", "repos has an unknown shape"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := legacyEntry()
			for _, mod := range tt.mods {
				mod(e)
			}
			in := legacyDoc(t, e)
			m := mustMigrate(t, in)
			id := m.Registry.Sessions[0].SessionID
			if !jsonEqual(m.Dropped[id][tt.key], mustJSON(t, e[tt.key])) {
				t.Errorf("Dropped[%q] = %s, want %s", tt.key, m.Dropped[id][tt.key], mustJSON(t, e[tt.key]))
			}
			if !hasNote(m, tt.note) {
				t.Errorf("no note containing %q in %q", tt.note, m.Notes)
			}
			if l := lost(t, in, m); len(l) > 0 {
				t.Errorf("values lost: %q", l)
			}
		})
	}
	m := mustMigrate(t, legacyWith(t, set("updatedAt", "2026-01-02T15:04:05.5Z")))
	if got := m.Registry.Sessions[0].UpdatedAt; got != "2026-01-02T15:04:05Z" {
		t.Errorf("updatedAt with a fraction migrated to %q", got)
	}
}

// TestMigrateAllDuplicatesRecorded: every losing duplicate is recorded
// whole, in file order, each with its own unknown keys and its own note.
func TestMigrateAllDuplicatesRecorded(t *testing.T) {
	var entries []map[string]any
	for i, d := range []string{"one", "two", "three", "four"} {
		e := legacyEntry()
		e["description"] = d
		e["foo"] = "foo-" + d
		e["updatedAt"] = fmt.Sprintf("2025-01-0%dT00:00:00Z", (i+2)%4+1) // three is newest
		entries = append(entries, e)
	}
	m := mustMigrate(t, legacyDoc(t, entries...))
	if s := m.Registry.Sessions[0]; s.Description != "two" || s.UpdatedAt != "2025-01-04T00:00:00Z" {
		t.Fatalf("merged to %+v, want the newest", s)
	}
	var got []string
	for _, l := range mergedEntries(t, m, "feat-x") {
		got = append(got, fmt.Sprint(l["description"], "/", l["foo"]))
	}
	if want := []string{"one/foo-one", "three/foo-three", "four/foo-four"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mergedEntries = %q, want %q", got, want)
	}
	merges := 0
	for _, n := range m.Notes {
		if strings.Contains(n, "merged a duplicate entry") {
			merges++
		}
	}
	if merges != 3 {
		t.Errorf("%d merge notes, want 3: %q", merges, m.Notes)
	}
}

// TestMigrateNotesAreStable: notes do not depend on map iteration order.
func TestMigrateNotesAreStable(t *testing.T) {
	e := legacyEntry()
	for _, k := range []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"} {
		e[k] = k
	}
	in := mustJSON(t, map[string]any{"a": 1, "b": 2, "c": 3, "d": 4, "sessions": []any{e}})
	first := mustMigrate(t, in).Notes
	if len(first) != 12 || !sort.StringsAreSorted(first[:4]) || !sort.StringsAreSorted(first[4:]) {
		t.Errorf("notes are not the top-level keys, then the entry's, each in key order: %q", first)
	}
	for range 20 {
		if again := mustMigrate(t, in).Notes; !reflect.DeepEqual(again, first) {
			t.Fatalf("notes changed between runs:\n%q\n%q", first, again)
		}
	}
}

// TestMigrateTopLevelSchema: a schema that is not 1 (and not newer) is
// recorded rather than dropped.
func TestMigrateTopLevelSchema(t *testing.T) {
	for _, v := range []string{`0`, `"1"`, `true`} {
		m := mustMigrate(t, []byte(`{"schema":`+v+`,"sessions":[]}`))
		if !jsonEqual(m.DroppedTop["schema"], []byte(v)) || !hasNote(m, "top-level schema is not 1") {
			t.Errorf("schema %s: DroppedTop %s, notes %q", v, mustJSON(t, m.DroppedTop), m.Notes)
		}
	}
}

// TestMigrateRefusesMalformedLegacy: duplicate keys or invalid UTF-8 in a
// legacy file would be resolved silently by encoding/json; they are refused.
func TestMigrateRefusesMalformedLegacy(t *testing.T) {
	for _, in := range [][]byte{
		[]byte(`{"sessions":[{"gitBranch":"feat/x","status":"paused","status":"completed"}]}`),
		[]byte("{\"sessions\":[{\"gitBranch\":\"feat/x\",\"description\":\"caf\xe9\"}]}"),
	} {
		m, err := Migrate(in, "2026-01-01T00:00:00Z")
		if err == nil {
			t.Errorf("Migrate(%q) succeeded: %s", in, mustMarshal(t, m.Registry))
			continue
		}
		if ie := wantInvalid(t, err, anyProblem); ie.Problem == Damaged {
			t.Errorf("refused with the doctor hint: %v", err)
		}
	}
}

// TestMigrateKeepsEveryOldKey: a sessionId and a branch that differ from the
// new key, and from each other, are both kept as legacy folder names.
func TestMigrateKeepsEveryOldKey(t *testing.T) {
	m := mustMigrate(t, legacyWith(t, set("sessionId", "old id"), set("branch", "feat-x old")))
	if want := []string{"feat-x old", "old id"}; !reflect.DeepEqual(m.Folders["feat-x"], want) {
		t.Errorf("Folders = %q, want %q", m.Folders["feat-x"], want)
	}
}
