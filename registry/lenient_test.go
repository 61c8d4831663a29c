package registry

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLooseSchema1(t *testing.T) {
	got := ParseLoose(readTestdata(t, "full.json"))
	want := []Loose{
		{
			SessionID: "feat-sso-login", GitBranch: "feat/sso login", Command: "flow", Status: "in_progress",
			Phase: float64(4), PhaseLabel: "implement", TotalPhases: float64(7), JiraTicket: "AUTH-142",
			UpdatedAt: "2026-01-03T09:00:00Z",
		},
		{
			SessionID: "feat-billing", GitBranch: "feat/billing", Command: "flow", Status: "paused",
			Phase: "done", PhaseLabel: nil, TotalPhases: float64(6), JiraTicket: nil,
			UpdatedAt: "2025-12-02T10:00:00Z",
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseLoose(full.json) =\n%#v\nwant\n%#v", got, want)
	}
}

func TestParseLooseLegacy(t *testing.T) {
	tests := []struct {
		name  string
		entry string
		want  Loose
	}{
		{
			"snake case",
			`{"session_id":"01HZX3K9","branch":"feat-x","command":"flow","status":"in_progress","current_phase":3,"total_phases":5,"updated_at":"2025-11-04T17:30:00Z","created_at":"2025-11-03T09:00:00Z"}`,
			Loose{SessionID: "feat-x", GitBranch: "feat-x", Command: "flow", Status: "in_progress", Phase: float64(3), TotalPhases: float64(5), UpdatedAt: "2025-11-04T17:30:00Z"},
		},
		{
			"only session_id",
			`{"session_id":"01HZX3K9","current_phase":2}`,
			Loose{SessionID: "01HZX3K9", Phase: float64(2)},
		},
		{
			"created_at as the last resort",
			`{"branch":"a","created_at":"2025-01-01T00:00:00Z"}`,
			Loose{SessionID: "a", GitBranch: "a", UpdatedAt: "2025-01-01T00:00:00Z"},
		},
		{
			"startedAt before created_at",
			`{"branch":"a","startedAt":"2025-02-01T00:00:00Z","created_at":"2025-01-01T00:00:00Z"}`,
			Loose{SessionID: "a", GitBranch: "a", UpdatedAt: "2025-02-01T00:00:00Z"},
		},
		{
			"updatedAt before updated_at",
			`{"branch":"a","updatedAt":"2025-03-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z"}`,
			Loose{SessionID: "a", GitBranch: "a", UpdatedAt: "2025-03-01T00:00:00Z"},
		},
		{
			"null phase falls back to current_phase",
			`{"branch":"a","phase":null,"current_phase":4}`,
			Loose{SessionID: "a", GitBranch: "a", Phase: float64(4)},
		},
		{
			"string phase kept as is",
			`{"branch":"a","phase":"5abc","phaseLabel":"x"}`,
			Loose{SessionID: "a", GitBranch: "a", Phase: "5abc", PhaseLabel: "x"},
		},
		{
			"sessionId before branch",
			`{"sessionId":"feat-x","branch":"other","gitBranch":"feat/x"}`,
			Loose{SessionID: "feat-x", GitBranch: "feat/x"},
		},
		{
			"raw branch only",
			`{"gitBranch":"feat/x"}`,
			Loose{GitBranch: "feat/x"},
		},
		{
			"wrong types degrade to the next candidate or empty",
			`{"sessionId":5,"branch":"b","gitBranch":["x"],"command":{},"status":7,"updatedAt":123,"updated_at":"2025-01-01T00:00:00Z","totalPhases":null,"total_phases":"3","jiraTicket":42}`,
			Loose{SessionID: "b", GitBranch: "b", TotalPhases: "3", JiraTicket: float64(42), UpdatedAt: "2025-01-01T00:00:00Z"},
		},
		{
			"empty strings skip to the next key",
			`{"sessionId":"","branch":"b","gitBranch":"","command":""}`,
			Loose{SessionID: "b", GitBranch: "b"},
		},
		{
			"unknown keys ignored",
			`{"branch":"b","workspaceName":"w","repos":[{"name":"x"}],"perRepoState":{"x":1}}`,
			Loose{SessionID: "b", GitBranch: "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, top := range []string{`{"sessions":[` + tt.entry + `]}`, `{"schemaVersion":2,"sessions":[` + tt.entry + `],"x":1}`} {
				got := ParseLoose([]byte(top))
				if len(got) != 1 {
					t.Fatalf("ParseLoose(%s) returned %d entries", top, len(got))
				}
				if !reflect.DeepEqual(got[0], tt.want) {
					t.Fatalf("ParseLoose(%s) =\n%#v\nwant\n%#v", top, got[0], tt.want)
				}
			}
		})
	}
}

func TestParseLooseKeepsOrderAndDuplicates(t *testing.T) {
	got := ParseLoose([]byte(`{"sessions":[{"branch":"a"},{"branch":"b"},{"branch":"a","status":"paused"}]}`))
	if len(got) != 3 || got[0].SessionID != "a" || got[1].SessionID != "b" || got[2].Status != "paused" {
		t.Fatalf("ParseLoose = %+v", got)
	}
}

func TestParseLooseGarbage(t *testing.T) {
	inputs := []string{
		"", " ", "x", "{", "}", "[]", "[{}]", `"sessions"`, "1", "true",
		"\xff\xfe", "\x00", `{"sessions":5}`, `{"sessions":"x"}`, `{"sessions":{}}`, `{"sessions":[1]}`,
		`{"sessions":[[]]}`, `{"sessions":[{"branch":"a"}]} trailing`, `{"sessions":[{"branch":"a"}`,
		strings.Repeat("[", 100000), strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000),
	}
	for _, in := range inputs {
		if got := ParseLoose([]byte(in)); len(got) != 0 {
			t.Errorf("ParseLoose(%.40q) = %+v, want no sessions", in, got)
		}
	}
	// No sessions at all: nothing to show, but no failure either.
	for _, in := range []string{"null", "{}", `{"sessions":null}`, `{"sessions":[]}`, `{"schema":1}`} {
		if got := ParseLoose([]byte(in)); len(got) != 0 {
			t.Errorf("ParseLoose(%q) = %+v, want no entries", in, got)
		}
	}
	// Mixed lists, duplicate keys and invalid UTF-8 must not panic.
	for _, in := range []string{
		`{"sessions":[{"branch":"a"},42]}`,
		`{"sessions":[{"branch":"a","branch":"b"}]}`,
		"{\"sessions\":[{\"branch\":\"caf\xe9\"}]}",
	} {
		_ = ParseLoose([]byte(in))
	}
	if got := ParseLoose(nil); got != nil {
		t.Errorf("ParseLoose(nil) = %+v", got)
	}
}

// An entry that is not an object, or a member of the wrong type, spoils
// only itself: the statusline still renders the rest.
func TestParseLooseSkipsBadParts(t *testing.T) {
	got := ParseLoose([]byte(`{"sessions":[42,null,{},{"phaseLabel":{"x":1}},{"branch":"a","status":7,"command":"flow"}]}`))
	if len(got) != 2 || got[1].SessionID != "a" || got[1].Status != "" || got[1].Command != "flow" {
		t.Fatalf("ParseLoose = %+v", got)
	}
}
