package binding

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const one = `{
  "schema": 1,
  "worktrees": [
    {
      "path": "/r/wt1",
      "gitDir": "/r/main/.git/worktrees/wt1",
      "session": "feat-par",
      "agent": "a1",
      "boundAt": "2026-01-02T15:04:05Z"
    }
  ]
}
`

func TestParse(t *testing.T) {
	entry := func(fields string) string {
		return `{"schema": 1, "worktrees": [{` + fields + `}]}`
	}
	const ok = `"path": "/r/wt1", "gitDir": "/r/g/worktrees/wt1", "session": "s", "boundAt": "2026-01-02T15:04:05Z"`
	tests := []struct {
		name, data, fault string // fault "" means valid
		newer             bool
	}{
		{"empty file", "", "", false},
		{"blank", " \n", "", false},
		{"one binding", one, "", false},
		{"no bindings", `{"schema": 1, "worktrees": []}`, "", false},
		{"no agent", entry(ok), "", false},
		{"newer schema", `{"schema": 2, "worktrees": [], "more": 1}`, "newer", true},
		{"older schema", `{"schema": 0, "worktrees": []}`, "schema is 0", false},
		{"no schema", `{"worktrees": []}`, "no schema", false},
		{"no worktrees", `{"schema": 1}`, "no worktrees array", false},
		{"null worktrees", `{"schema": 1, "worktrees": null}`, "null", false},
		{"not an object", `[]`, "not a JSON object", false},
		{"unknown field", `{"schema": 1, "worktrees": [], "x": 1}`, "x", false},
		{"unknown entry field", entry(ok + `, "branch": "b"`), "branch", false},
		{"duplicate key", `{"schema": 1, "schema": 1, "worktrees": []}`, "duplicate", false},
		{"trailing data", `{"schema": 1, "worktrees": []} {}`, "after top-level value", false},
		{"relative path", entry(strings.Replace(ok, `"/r/wt1"`, `"r/wt1"`, 1)), "absolute", false},
		{"unclean path", entry(strings.Replace(ok, `"/r/wt1"`, `"/r/../r/wt1"`, 1)), "clean", false},
		{"empty gitDir", entry(strings.Replace(ok, `"/r/g/worktrees/wt1"`, `""`, 1)), "gitDir is empty", false},
		{"path with a newline", entry(strings.Replace(ok, `"/r/wt1"`, `"/r/w\nt1"`, 1)), "line", false},
		{"path with U+2028", entry(strings.Replace(ok, `"/r/wt1"`, `"/r/w\u2028t1"`, 1)), "U+2028", false},
		{"session reserved", entry(strings.Replace(ok, `"s"`, `"orc.json"`, 1)), "reserved", false},
		{"session traversal", entry(strings.Replace(ok, `"s"`, `".."`, 1)), "traversal", false},
		{"session with a slash", entry(strings.Replace(ok, `"s"`, `"feat/x"`, 1)), "outside", false},
		{"agent with a tab", entry(ok + `, "agent": "a\tb"`), "agent", false},
		{"agent empty", entry(ok + `, "agent": ""`), "agent is empty", false},
		{"boundAt not UTC", entry(strings.Replace(ok, `05Z"`, `05+01:00"`, 1)), "boundAt", false},
		{"boundAt fractional", entry(strings.Replace(ok, `05Z"`, `05.5Z"`, 1)), "boundAt", false},
		{"gitDirMade", entry(ok + `, "gitDirMade": "2026-01-02T15:04:05.123456789Z"`), "", false},
		{"gitDirMade empty", entry(ok + `, "gitDirMade": ""`), "gitDirMade is empty", false},
		{"gitDirMade not UTC", entry(ok + `, "gitDirMade": "2026-01-02T15:04:05.1+01:00"`), "gitDirMade", false},
		{"gitDirMade no time", entry(ok + `, "gitDirMade": "yesterday"`), "gitDirMade", false},
		{"path bound twice", `{"schema": 1, "worktrees": [
			{"path": "/r/wt1", "gitDir": "/g/1", "session": "s", "boundAt": "2026-01-02T15:04:05Z"},
			{"path": "/r/wt1", "gitDir": "/g/2", "session": "s", "boundAt": "2026-01-02T15:04:05Z"}]}`, "bound twice", false},
		{"gitDir bound twice", `{"schema": 1, "worktrees": [
			{"path": "/r/wt1", "gitDir": "/g/1", "session": "s", "boundAt": "2026-01-02T15:04:05Z"},
			{"path": "/r/wt2", "gitDir": "/g/1", "session": "t", "boundAt": "2026-01-02T15:04:05Z"}]}`, "bound twice", false},
		{"agent twice in a session", `{"schema": 1, "worktrees": [
			{"path": "/r/wt1", "gitDir": "/g/1", "session": "s", "agent": "a", "boundAt": "2026-01-02T15:04:05Z"},
			{"path": "/r/wt2", "gitDir": "/g/2", "session": "s", "agent": "a", "boundAt": "2026-01-02T15:04:05Z"}]}`, "agent \"a\" is bound twice", false},
		{"one agent in two sessions", `{"schema": 1, "worktrees": [
			{"path": "/r/wt1", "gitDir": "/g/1", "session": "s", "agent": "a", "boundAt": "2026-01-02T15:04:05Z"},
			{"path": "/r/wt2", "gitDir": "/g/2", "session": "t", "agent": "a", "boundAt": "2026-01-02T15:04:05Z"}]}`, "", false},
		{"invalid UTF-8", "{\"schema\": 1, \"worktrees\": [], \"\xff\": 1}", "UTF-8", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.data))
			if tt.fault == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				again, err := Parse(f.Marshal())
				if err != nil || !bytes.Equal(again.Marshal(), f.Marshal()) {
					t.Errorf("Marshal does not round-trip: %v\n%s", err, f.Marshal())
				}
				return
			}
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("Parse = %v, want an *InvalidError", err)
			}
			if ie.Newer() != tt.newer {
				t.Errorf("Newer = %v, want %v", ie.Newer(), tt.newer)
			}
			if !strings.Contains(err.Error(), tt.fault) || !strings.HasPrefix(err.Error(), "worktrees.json is invalid: ") {
				t.Errorf("error %q does not say %q", err, tt.fault)
			}
		})
	}
}

func TestMarshalIsSortedAndCanonical(t *testing.T) {
	f := &File{Schema: Schema}
	f.Put(Binding{Path: "/r/wt2", GitDir: "/g/2", Session: "s", BoundAt: "2026-01-02T15:04:05Z"})
	f.Put(Binding{Path: "/r/wt1", GitDir: "/g/1", Session: "s", Agent: "a<b>&", BoundAt: "2026-01-02T15:04:05Z"})
	got := string(f.Marshal())
	if strings.Index(got, "/r/wt1") > strings.Index(got, "/r/wt2") {
		t.Errorf("entries are not sorted by path:\n%s", got)
	}
	if !strings.Contains(got, `"agent": "a<b>&"`) || !strings.HasSuffix(got, "}\n") {
		t.Errorf("not the canonical rendering:\n%s", got)
	}
	if strings.Count(got, `"agent"`) != 1 {
		t.Errorf("an empty agent is rendered:\n%s", got)
	}
	if _, err := Parse([]byte(got)); err != nil {
		t.Errorf("Marshal's output does not parse: %v", err)
	}
}

func TestChanges(t *testing.T) {
	b := func(path, gitDir, session, agent string) Binding {
		return Binding{Path: path, GitDir: gitDir, Session: session, Agent: agent, BoundAt: "2026-01-02T15:04:05Z"}
	}
	f := &File{Schema: Schema}
	f.Put(b("/r/wt1", "/g/wt1", "s", "a1"))
	f.Put(b("/r/wt2", "/g/wt2", "s", "a2"))
	f.Put(b("/r/wt3", "/g/wt3", "t", ""))

	// The same worktree again replaces its binding; so does a new worktree
	// at the path of an old one (removed, added again under a new name).
	if old := f.Put(b("/r/wt1", "/g/wt1", "t", "x")); len(old) != 1 || old[0].Session != "s" {
		t.Errorf("Put over the same worktree replaced %+v", old)
	}
	if old := f.Put(b("/r/wt2", "/g/wt2-1", "s", "a2")); len(old) != 1 || old[0].GitDir != "/g/wt2" {
		t.Errorf("Put over the same path replaced %+v", old)
	}
	if len(f.Worktrees) != 3 {
		t.Fatalf("%d bindings, want 3: %+v", len(f.Worktrees), f.Worktrees)
	}
	if got := f.ByGitDir("/g/wt2-1/"); got == nil || got.Path != "/r/wt2" {
		t.Errorf("ByGitDir with a trailing slash = %+v", got)
	}
	if f.ByGitDir("/g/wt2") != nil {
		t.Error("the replaced binding is still found")
	}
	if h := f.AgentHolder("s", "a2", "/g/other"); h == nil || h.Path != "/r/wt2" {
		t.Errorf("AgentHolder(s, a2) = %+v", h)
	}
	for _, tt := range []struct{ session, agent, gitDir string }{
		{"s", "a2", "/g/wt2-1"}, // its own binding
		{"t", "a2", "/g/other"}, // another session
		{"s", "", "/g/other"},   // no agent: never a holder
	} {
		if h := f.AgentHolder(tt.session, tt.agent, tt.gitDir); h != nil {
			t.Errorf("AgentHolder(%q, %q, %q) = %+v, want none", tt.session, tt.agent, tt.gitDir, h)
		}
	}
	if of := f.Of("t"); len(of) != 2 || of[0].Path != "/r/wt1" || of[1].Path != "/r/wt3" {
		t.Errorf("Of(t) = %+v", of)
	}
	if _, ok := f.Remove("/r/nope"); ok {
		t.Error("Remove of an unbound path reported a removal")
	}
	if got, ok := f.Remove("/r/wt3"); !ok || got.GitDir != "/g/wt3" {
		t.Errorf("Remove(/r/wt3) = %+v, %v", got, ok)
	}
	if gone := f.RemoveSessions("t", "u"); len(gone) != 1 || gone[0].Path != "/r/wt1" {
		t.Errorf("RemoveSessions(t, u) = %+v", gone)
	}
	if len(f.Worktrees) != 1 || f.Worktrees[0].Session != "s" {
		t.Errorf("left %+v, want the one binding to s", f.Worktrees)
	}
	if err := f.Validate(); err != nil {
		t.Errorf("the result does not validate: %v", err)
	}
}

func TestLoose(t *testing.T) {
	if got := Loose([]byte(one)); len(got) != 1 || got[0].Agent != "a1" {
		t.Errorf("Loose(one) = %+v", got)
	}
	if Find(Loose([]byte(one)), "/r/main/.git/worktrees/wt1") == nil {
		t.Error("Find over Loose misses the binding")
	}
	for _, bad := range []string{"", "{", `{"worktrees": 3}`, "[]"} {
		if got := Loose([]byte(bad)); got != nil {
			t.Errorf("Loose(%q) = %+v, want nil", bad, got)
		}
	}
}

// FuzzParse: Parse never panics, and what it accepts Marshal renders into
// bytes it accepts again unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(one))
	f.Add([]byte(`{"schema": 1, "worktrees": []}`))
	f.Add([]byte(`{"schema": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		Loose(data)
		if err != nil {
			return
		}
		out := file.Marshal()
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Marshal's output is refused: %v\n%s", err, out)
		}
		if !bytes.Equal(again.Marshal(), out) {
			t.Fatalf("Marshal is not stable:\n%s\n%s", out, again.Marshal())
		}
	})
}

// Names: the same git dir and root, and the same making when one is
// recorded; a binding written before gitDirMade matches by the two alone.
func TestNames(t *testing.T) {
	same := func(a, b string) bool { return a == b }
	b := Binding{Path: "/r/wt", GitDir: "/r/.git/worktrees/wt", GitDirMade: "2026-01-02T15:04:05.1Z"}
	for _, tt := range []struct {
		gitDir, root, made string
		want               bool
	}{
		{"/r/.git/worktrees/wt", "/r/wt", "2026-01-02T15:04:05.1Z", true},
		{"/r/.git/worktrees/wt", "/r/wt", "2026-01-02T15:04:06.2Z", false}, // removed and added again
		{"/r/.git/worktrees/wt", "/r/other", "2026-01-02T15:04:05.1Z", false},
		{"/r/.git/worktrees/wt2", "/r/wt", "2026-01-02T15:04:05.1Z", false},
		{"/r/.git/worktrees/wt", "/r/wt", "", false}, // its commondir unreadable
	} {
		if got := b.Names(tt.gitDir, tt.root, tt.made, same); got != tt.want {
			t.Errorf("Names(%q, %q, %q) = %v", tt.gitDir, tt.root, tt.made, got)
		}
	}
	legacy := b
	legacy.GitDirMade = ""
	if !legacy.Names("/r/.git/worktrees/wt", "/r/wt", "2030-01-01T00:00:00Z", same) {
		t.Error("a binding without gitDirMade does not match its worktree")
	}
}
