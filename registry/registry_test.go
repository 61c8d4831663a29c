package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// anyProblem makes wantInvalid accept any Problem.
const anyProblem Problem = -1

// entry returns a valid schema-1 entry as a generic map that a test case
// mutates before encoding it.
func entry() map[string]any {
	return map[string]any{
		"sessionId":   "feat-x",
		"command":     "flow",
		"branch":      "feat-x",
		"gitBranch":   "feat/x",
		"description": "",
		"status":      "in_progress",
		"phase":       1,
		"phaseLabel":  nil,
		"totalPhases": 3,
		"jiraTicket":  nil,
		"planFile":    nil,
		"linkedPRs":   []any{},
		"startedAt":   "2026-01-02T15:04:05Z",
		"updatedAt":   "2026-01-02T15:04:05Z",
	}
}

// mustJSON encodes v without HTML escaping.
func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding test input: %v", err)
	}
	return buf.Bytes()
}

// withEntry returns a schema-1 registry holding one entry changed by mod.
func withEntry(t testing.TB, mod func(e map[string]any)) []byte {
	t.Helper()
	e := entry()
	if mod != nil {
		mod(e)
	}
	return mustJSON(t, map[string]any{"schema": 1, "sessions": []any{e}})
}

// set returns a mutation that sets key k to v.
func set(k string, v any) func(map[string]any) {
	return func(e map[string]any) { e[k] = v }
}

// del returns a mutation that removes key k.
func del(k string) func(map[string]any) {
	return func(e map[string]any) { delete(e, k) }
}

// keyed returns a mutation that makes sessionId and branch id, and gitBranch raw.
func keyed(id, raw string) func(map[string]any) {
	return func(e map[string]any) {
		e["sessionId"], e["branch"], e["gitBranch"] = id, id, raw
	}
}

// wantInvalid asserts that err is an *InvalidError with a known Problem
// (the one given, unless anyProblem) and a one-line message.
func wantInvalid(t *testing.T, err error, problem Problem) *InvalidError {
	t.Helper()
	if err == nil {
		t.Fatal("got no error, want an *InvalidError")
	}
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("error %q is a %T, want *InvalidError", err, err)
	}
	if problem != anyProblem && ie.Problem != problem {
		t.Errorf("Problem = %d, want %d (error: %v)", ie.Problem, problem, err)
	}
	if ie.Problem < Damaged || ie.Problem > Collision {
		t.Errorf("Problem %d is not a known kind (error: %v)", ie.Problem, err)
	}
	if strings.ContainsAny(ie.Error(), "\r\n") {
		t.Errorf("error is not one line: %q", ie.Error())
	}
	return ie
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseFull(t *testing.T) {
	in := readTestdata(t, "full.json")
	r, err := Parse(in)
	if err != nil {
		t.Fatalf("Parse(full.json) = %v", err)
	}
	if r.Schema != 1 || len(r.Sessions) != 2 {
		t.Fatalf("Parse(full.json) = schema %d, %d sessions", r.Schema, len(r.Sessions))
	}

	sso := r.Sessions[0]
	if sso.SessionID != "feat-sso-login" || sso.GitBranch != "feat/sso login" || sso.Phase != (Phase{N: 4}) ||
		Deref(sso.PhaseLabel) != "implement" || Deref(sso.JiraTicket) != "AUTH-142" ||
		Deref(sso.PlanFile) != "docs/plans/sso-login.md" || sso.TotalPhases != 7 {
		t.Errorf("first session decoded as %+v", sso)
	}
	if len(sso.LinkedPRs) != 2 || *sso.LinkedPRs[1].Number != 89 || *sso.LinkedPRs[1].StackPosition != 2 ||
		Deref(sso.LinkedPRs[1].StackedOn) != sso.LinkedPRs[0].URL || sso.LinkedPRs[0].StackedOn != nil {
		t.Errorf("linkedPRs decoded as %+v", sso.LinkedPRs)
	}
	if sso.Gate == nil || len(sso.Gate.Verdicts) != 2 || sso.Gate.Verdicts[0].Reviewer != "alice" ||
		sso.Gate.Verdicts[1].Verdict != "approved" || sso.Gate.Retries["3"] != 1 {
		t.Errorf("gate decoded as %+v", sso.Gate)
	}

	ws := r.Sessions[1]
	if !ws.Phase.Done || ws.PhaseLabel != nil || ws.Scope != "workspace" || !reflect.DeepEqual(ws.Repos, []string{"web", "api"}) {
		t.Errorf("second session decoded as %+v", ws)
	}
	api, web := ws.PerRepoState["api"], ws.PerRepoState["web"]
	if api.Worktree != "../api-billing" || api.CurrentSlice != nil || Deref(api.PRURL) != "https://github.com/acme/api/pull/40" ||
		web.Worktree != "" || web.CurrentSlice == nil || *web.CurrentSlice != 2 || web.PRURL != nil {
		t.Errorf("perRepoState decoded as %+v", ws.PerRepoState)
	}

	out, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) {
		t.Errorf("Marshal(Parse(full.json)) is not the canonical input:\n--- got\n%s\n--- want\n%s", out, in)
	}
	again, err := r.Marshal()
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second Marshal differs (%v)", err)
	}
	r2, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal(x)) = %v", err)
	}
	if !reflect.DeepEqual(r, r2) {
		t.Errorf("Parse(Marshal(x)) differs:\n%+v\n%+v", r, r2)
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		{"one entry", withEntry(t, nil)},
		{"no sessions", []byte(`{"schema":1,"sessions":[]}`)},
		{"surrounding whitespace", []byte(" \n\t{\"schema\":1,\"sessions\":[]}\r\n ")},
		{"phase done", withEntry(t, set("phase", "done"))},
		{"phase done escaped", []byte(strings.Replace(string(withEntry(t, nil)), `"phase":1`, `"phase":"\u0064one"`, 1))},
		{"phase equals totalPhases", withEntry(t, set("phase", 3))},
		{"phaseLabel set", withEntry(t, set("phaseLabel", "qa-complete"))},
		{"description of 120 ASCII characters", withEntry(t, set("description", strings.Repeat("d", 120)))},
		{"description of 120 two-byte characters", withEntry(t, set("description", strings.Repeat("é", 120)))},
		{"description of 120 four-byte characters", withEntry(t, set("description", strings.Repeat("😀", 120)))},
		{"html characters", withEntry(t, set("description", `<b>&amp;</b> "q"`))},
		{"jira key", withEntry(t, set("jiraTicket", "AB_C2-99"))},
		{"raw branch with a space", withEntry(t, keyed("feat-x", "feat x"))},
		{"branch that needs no sanitizing", withEntry(t, keyed("main", "main"))},
		{"unicode branch", withEntry(t, keyed("caf--", "café"))},
		{"200-byte key", withEntry(t, keyed(strings.Repeat("k", 200), strings.Repeat("k", 200)))},
		{"device name keyed by the portable rule", withEntry(t, keyed("con-", "con"))},
		{"device name keyed by an earlier version", withEntry(t, keyed("con", "con"))},
		{"device name with an extension, earlier key", withEntry(t, keyed("nul.a-b", "nul.a/b"))},
		{"trailing dot keyed by the portable rule", withEntry(t, keyed("v1.-", "v1."))},
		{"trailing dot keyed by an earlier version", withEntry(t, keyed("v1.", "v1."))},
		{"reserved name in another case (an earlier version's)", withEntry(t, keyed("Knowledge", "Knowledge"))},
		{"two sessions that differ only in case", mustJSON(t, map[string]any{"schema": 1, "sessions": []any{entry(), func() map[string]any {
			e := entry()
			keyed("Feat-X", "Feat/X")(e)
			return e
		}()}})},
		{"nullable fields absent", withEntry(t, func(e map[string]any) {
			delete(e, "phaseLabel")
			delete(e, "jiraTicket")
			delete(e, "planFile")
			delete(e, "linkedPRs")
			delete(e, "description")
		})},
		{"linked PR with only repo and url", withEntry(t, set("linkedPRs", []any{map[string]any{"repo": "a/b", "url": "https://x/1"}}))},
		{"workspace scope", withEntry(t, func(e map[string]any) {
			e["scope"] = "workspace"
			e["repos"] = []any{"web", "api"}
			e["perRepoState"] = map[string]any{"web": map[string]any{"repoPath": "../web", "branch": "feat/x", "currentSlice": 1, "prUrl": nil}}
		})},
		{"empty gate", withEntry(t, set("gate", map[string]any{"verdicts": []any{}, "retries": map[string]any{}}))},
		{"two sessions", mustJSON(t, map[string]any{"schema": 1, "sessions": []any{entry(), func() map[string]any {
			e := entry()
			keyed("feat-y", "feat/y")(e)
			return e
		}()}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.data)
			if err != nil {
				t.Fatalf("Parse(%s) = %v", tt.data, err)
			}
			if err := r.Validate(); err != nil {
				t.Fatalf("Validate after Parse = %v", err)
			}
			out, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			r2, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse(Marshal(x)) = %v\n%s", err, out)
			}
			out2, err := r2.Marshal()
			if err != nil || !bytes.Equal(out, out2) {
				t.Fatalf("Marshal is not stable (%v):\n%s\n%s", err, out, out2)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	valid := string(withEntry(t, nil))
	deep := strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70)
	twoSame := mustJSON(t, map[string]any{"schema": 1, "sessions": []any{entry(), entry()}})
	twoSameKey := mustJSON(t, map[string]any{"schema": 1, "sessions": []any{entry(), func() map[string]any {
		e := entry()
		e["gitBranch"] = "feat x"
		return e
	}()}})
	pr := func(repo, url string) map[string]any { return map[string]any{"repo": repo, "url": url} }

	tests := []struct {
		name    string
		data    []byte
		problem Problem // anyProblem accepts any
		fault   string  // a substring of the message
	}{
		// Shape of the file.
		{"empty file", []byte(""), Damaged, ""},
		{"null", []byte("null"), anyProblem, ""},
		{"array", []byte("[]"), Damaged, ""},
		{"string", []byte(`"orc"`), Damaged, ""},
		{"number", []byte(`1`), Damaged, ""},
		{"byte order mark", append([]byte("\xef\xbb\xbf"), valid...), Damaged, ""},
		{"invalid UTF-8", []byte(strings.Replace(valid, `"description":""`, "\"description\":\"caf\xe9\"", 1)), Damaged, "UTF-8"},
		{"trailing garbage", []byte(valid + "x"), Damaged, ""},
		{"null sessions", []byte(`{"schema":1,"sessions":null}`), Damaged, "null where a list is expected"},
		{"null description", []byte(strings.Replace(valid, `"description":""`, `"description":null`, 1)), Damaged, "null where a string is expected"},
		{"two documents", []byte(valid + valid), Damaged, ""},
		{"truncated", []byte(valid[:len(valid)/2]), Damaged, ""},
		{"deep nesting", []byte(`{"schema":1,"sessions":[],"x":` + deep + `}`), Damaged, "nested deeper"},
		{"duplicate top-level key", []byte(`{"schema":1,"sessions":[],"sessions":[]}`), Damaged, `duplicate key "sessions"`},
		{"duplicate schema key", []byte(`{"schema":1,"schema":1,"sessions":[]}`), Damaged, "duplicate key"},
		{"duplicate key in a session", []byte(strings.Replace(valid, `"command":"flow"`, `"command":"flow","command":"debug"`, 1)), Damaged, `duplicate key "command"`},

		// Schema versions.
		{"no schema", []byte(`{"sessions":[]}`), Legacy, "schema"},
		{"empty object", []byte(`{}`), Legacy, "schema"},
		{"schema 2", []byte(`{"schema":2,"sessions":[]}`), Newer, "schema 2"},
		{"schema 99 with unknown fields", []byte(`{"schema":99,"sessions":[{"whatever":true}],"newThing":1}`), Newer, ""},
		{"schema 2 with legacy fields", []byte(`{"schema":2,"sessions":[{"session_id":"x"}]}`), Newer, ""},
		{"schema 0", []byte(`{"schema":0,"sessions":[]}`), anyProblem, "schema"},
		{"schema as a string", []byte(`{"schema":"1","sessions":[]}`), Damaged, ""},
		{"schema 1.5", []byte(`{"schema":1.5,"sessions":[]}`), Damaged, ""},

		// Undeclared and legacy fields.
		{"unknown session field", withEntry(t, set("foo", 1)), Damaged, `"foo"`},
		{"unknown top-level field", []byte(`{"schema":1,"sessions":[],"foo":1}`), Damaged, `"foo"`},
		{"unknown PR field", withEntry(t, set("linkedPRs", []any{map[string]any{"repo": "a", "url": "u", "title": "x"}})), Damaged, `"title"`},
		{"unknown perRepoState field", withEntry(t, set("perRepoState", map[string]any{"web": map[string]any{"repoPath": "p", "branch": "b", "pr_url": "u"}})), Damaged, `"pr_url"`},
		{"unknown gate field", withEntry(t, set("gate", map[string]any{"verdicts": []any{}, "retries": map[string]any{}, "budget": 2})), Damaged, `"budget"`},
		{"legacy planPath", withEntry(t, set("planPath", "p.md")), Damaged, `"planPath"`},
		{"legacy session_id", withEntry(t, set("session_id", "feat-x")), Legacy, `"session_id"`},
		{"legacy current_phase", withEntry(t, set("current_phase", 2)), Legacy, `"current_phase"`},
		{"legacy total_phases", withEntry(t, set("total_phases", 3)), Legacy, `"total_phases"`},
		{"legacy created_at", withEntry(t, set("created_at", "2026-01-02T15:04:05Z")), Legacy, `"created_at"`},
		{"legacy updated_at", withEntry(t, set("updated_at", "2026-01-02T15:04:05Z")), Legacy, `"updated_at"`},
		{"legacy branchSanitized", withEntry(t, set("branchSanitized", "feat-x")), Legacy, `"branchSanitized"`},
		{"legacy schemaVersion in a session", withEntry(t, set("schemaVersion", 2)), Legacy, `"schemaVersion"`},
		{"legacy schemaVersion at the top", []byte(`{"schema":1,"schemaVersion":2,"sessions":[]}`), Legacy, `"schemaVersion"`},
		{"legacy entry without schema", []byte(`{"sessions":[{"branch":"x","current_phase":2}]}`), Legacy, ""},

		// Keys and branches.
		{"duplicate sessionId", twoSame, Damaged, `duplicate sessionId "feat-x"`},
		{"two raw branches on one sessionId", twoSameKey, Damaged, `duplicate sessionId "feat-x"`},
		{"one branch under both key rules", mustJSON(t, map[string]any{"schema": 1, "sessions": []any{func() map[string]any {
			e := entry()
			keyed("con", "con")(e)
			return e
		}(), func() map[string]any {
			e := entry()
			keyed("con-", "con")(e)
			return e
		}()}}), Damaged, `duplicate gitBranch "con"`},
		{"device name mapped elsewhere", withEntry(t, keyed("con-x", "con")), Damaged, "gitBranch"},
		{"portable key of another branch", withEntry(t, keyed("con-", "con-.")), Damaged, "gitBranch"},
		{"branch differs from sessionId", withEntry(t, set("branch", "feat-y")), Damaged, "branch"},
		{"gitBranch maps elsewhere", withEntry(t, set("gitBranch", "feat/y")), Damaged, "gitBranch"},
		{"gitBranch empty", withEntry(t, set("gitBranch", "")), Damaged, "gitBranch"},
		{"gitBranch missing", withEntry(t, del("gitBranch")), Damaged, "gitBranch"},
		{"sessionId empty", withEntry(t, keyed("", "")), Damaged, "empty"},
		{"sessionId dot dot", withEntry(t, keyed("..", "..")), Damaged, "traversal"},
		{"sessionId hidden", withEntry(t, keyed(".hidden", ".hidden")), Damaged, "dot"},
		{"sessionId reserved", withEntry(t, keyed("knowledge", "knowledge")), Damaged, "reserved"},
		{"sessionId with a slash", withEntry(t, keyed("feat/x", "feat/x")), Damaged, "outside"},
		{"sessionId of 201 bytes", withEntry(t, keyed(strings.Repeat("k", 201), strings.Repeat("k", 201))), Damaged, "201 bytes"},

		// Enums and ranges.
		{"status done", withEntry(t, set("status", "done")), Damaged, "status"},
		{"status upper case", withEntry(t, set("status", "IN_PROGRESS")), Damaged, "status"},
		{"status empty", withEntry(t, set("status", "")), Damaged, "status"},
		{"status missing", withEntry(t, del("status")), Damaged, "status"},
		{"status number", withEntry(t, set("status", 1)), Damaged, "status"},
		{"phase above totalPhases", withEntry(t, set("phase", 4)), Damaged, "outside 1..3"},
		{"phase 0", withEntry(t, set("phase", 0)), Damaged, "phase"},
		{"phase -1", withEntry(t, set("phase", -1)), Damaged, "phase"},
		{"phase 5abc", withEntry(t, set("phase", "5abc")), Damaged, "phase"},
		{"phase as a digit string", withEntry(t, set("phase", "2")), Damaged, "phase"},
		{"phase 2.5", withEntry(t, set("phase", 2.5)), Damaged, "phase"},
		{"phase Done", withEntry(t, set("phase", "Done")), Damaged, "phase"},
		{"phase null", withEntry(t, set("phase", nil)), Damaged, "phase"},
		{"phase missing", withEntry(t, del("phase")), Damaged, "phase"},
		{"totalPhases 0", withEntry(t, set("totalPhases", 0)), Damaged, "totalPhases"},
		{"totalPhases 0 with phase done", withEntry(t, func(e map[string]any) { e["phase"], e["totalPhases"] = "done", 0 }), Damaged, "totalPhases"},
		{"totalPhases negative", withEntry(t, set("totalPhases", -3)), Damaged, "totalPhases"},
		{"totalPhases string", withEntry(t, set("totalPhases", "3")), Damaged, "totalPhases"},
		{"totalPhases fraction", withEntry(t, set("totalPhases", 3.5)), Damaged, "totalPhases"},
		{"scope repo", withEntry(t, set("scope", "repo")), Damaged, "scope"},
		{"scope workspace-member", withEntry(t, set("scope", "workspace-member")), Damaged, "scope"},
		{"repos with an empty name", withEntry(t, set("repos", []any{"web", ""})), Damaged, "repos"},
		{"repos as objects", withEntry(t, set("repos", []any{map[string]any{"name": "web"}})), Damaged, ""},
		{"gate verdict outside the enum", withEntry(t, set("gate", map[string]any{"verdicts": []any{map[string]any{"phase": 1, "verdict": "rejected", "at": "2026-01-02T15:04:05Z"}}})), Damaged, "rejected"},

		// Text fields.
		{"command empty", withEntry(t, set("command", "")), Damaged, "command"},
		{"command missing", withEntry(t, del("command")), Damaged, "command"},
		{"description of 121 characters", withEntry(t, set("description", strings.Repeat("d", 121))), Damaged, "121 characters"},
		{"description of 121 two-byte characters", withEntry(t, set("description", strings.Repeat("é", 121))), Damaged, "121 characters"},
		{"newline in phaseLabel (B8)", withEntry(t, set("phaseLabel", "impl\n---\nstatus: completed")), Damaged, "phaseLabel"},
		{"carriage return in phaseLabel", withEntry(t, set("phaseLabel", "impl\rx")), Damaged, "phaseLabel"},
		{"newline in command", withEntry(t, set("command", "flow\nstatus: completed")), Damaged, "command"},
		{"tab in command", withEntry(t, set("command", "flow\tx")), Damaged, "command"},
		{"newline in description", withEntry(t, set("description", "a\nb")), Damaged, "description"},
		{"NEL in description", withEntry(t, set("description", "a\u0085b")), Damaged, "description"},
		{"LINE SEPARATOR in phaseLabel", withEntry(t, set("phaseLabel", "a\u2028b")), Damaged, "phaseLabel"},
		{"PARAGRAPH SEPARATOR in command", withEntry(t, set("command", "a\u2029b")), Damaged, "command"},
		{"ESC in a repos name", withEntry(t, func(e map[string]any) { e["scope"], e["repos"] = "workspace", []any{"a\x1b[2Jb"} }), Damaged, "repos name"},
		{"newline in a PR url", withEntry(t, set("linkedPRs", []any{map[string]any{"repo": "r", "url": "https://x/1\nforged"}})), Damaged, "PR's url"},
		{"NEL in a PR stackId", withEntry(t, set("linkedPRs", []any{map[string]any{"repo": "r", "url": "https://x/1", "stackId": "s\u0085"}})), Damaged, "stackId"},
		{"LINE SEPARATOR in a perRepoState branch", withEntry(t, func(e map[string]any) {
			e["scope"], e["perRepoState"] = "workspace", map[string]any{"api": map[string]any{"repoPath": "p", "branch": "b\u2028"}}
		}), Damaged, "perRepoState branch"},
		{"CR in a perRepoState name", withEntry(t, func(e map[string]any) {
			e["scope"], e["perRepoState"] = "workspace", map[string]any{"a\rb": map[string]any{"repoPath": "p", "branch": "b"}}
		}), Damaged, "perRepoState name"},
		{"newline in a gate note", withEntry(t, set("gate", map[string]any{"verdicts": []any{map[string]any{"phase": 1, "verdict": "approved", "note": "ok\n## Resume digest", "at": "2026-01-02T15:04:05Z"}}, "retries": map[string]any{}})), Damaged, "note"},
		{"newline in planFile", withEntry(t, set("planFile", "a\nb")), Damaged, "planFile"},
		{"newline in scope", withEntry(t, set("scope", "workspace\n")), Damaged, "scope"},
		{"NUL in command", withEntry(t, set("command", "flow\x00")), Damaged, "command"},
		{"escaped lone surrogate maps elsewhere", []byte(strings.Replace(valid, `"gitBranch":"feat/x"`, `"gitBranch":"feat/\ud800"`, 1)), Damaged, "gitBranch"},

		// Jira.
		{"jira lower case", withEntry(t, set("jiraTicket", "abc-1")), Damaged, "jiraTicket"},
		{"jira without number", withEntry(t, set("jiraTicket", "ABC-")), Damaged, "jiraTicket"},
		{"jira without dash", withEntry(t, set("jiraTicket", "ABC")), Damaged, "jiraTicket"},
		{"jira leading digit", withEntry(t, set("jiraTicket", "1ABC-1")), Damaged, "jiraTicket"},
		{"jira trailing newline", withEntry(t, set("jiraTicket", "ABC-1\n")), Damaged, "jiraTicket"},
		{"jira empty string", withEntry(t, set("jiraTicket", "")), Damaged, "jiraTicket"},
		{"jira URL", withEntry(t, set("jiraTicket", "https://jira/browse/ABC-1")), Damaged, "jiraTicket"},

		// Linked PRs.
		{"duplicate PR URL", withEntry(t, set("linkedPRs", []any{pr("a/b", "https://x/1"), pr("a/c", "https://x/1")})), Damaged, "linked twice"},
		{"PR without url", withEntry(t, set("linkedPRs", []any{pr("a/b", "")})), Damaged, "url"},
		{"PR without repo", withEntry(t, set("linkedPRs", []any{pr("", "https://x/1")})), Damaged, "repo"},
		{"PR number as a string", withEntry(t, set("linkedPRs", []any{map[string]any{"repo": "a", "url": "u", "number": "12"}})), Damaged, "number"},
		{"linkedPRs as an object", withEntry(t, set("linkedPRs", map[string]any{})), Damaged, "linkedPRs"},

		// Times.
		{"updatedAt with a space", withEntry(t, set("updatedAt", "2026-01-02 15:04:05")), Damaged, "updatedAt"},
		{"updatedAt with an offset", withEntry(t, set("updatedAt", "2026-01-02T15:04:05+00:00")), Damaged, "updatedAt"},
		{"updatedAt without seconds", withEntry(t, set("updatedAt", "2026-01-02T15:04Z")), Damaged, "updatedAt"},
		{"updatedAt impossible date", withEntry(t, set("updatedAt", "2026-02-30T00:00:00Z")), Damaged, "updatedAt"},
		{"updatedAt date only", withEntry(t, set("updatedAt", "2026-01-02")), Damaged, "updatedAt"},
		{"updatedAt empty", withEntry(t, set("updatedAt", "")), Damaged, "updatedAt"},
		{"updatedAt epoch number", withEntry(t, set("updatedAt", 1767366245)), Damaged, "updatedAt"},
		{"startedAt missing", withEntry(t, del("startedAt")), Damaged, "startedAt"},
		{"startedAt lower-case z", withEntry(t, set("startedAt", "2026-01-02T15:04:05z")), Damaged, "startedAt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.data)
			if err == nil {
				t.Fatalf("Parse accepted %s as %+v", tt.data, r)
			}
			if r != nil {
				t.Errorf("Parse returned a registry alongside error %v", err)
			}
			ie := wantInvalid(t, err, tt.problem)
			if !strings.HasPrefix(ie.Error(), "orc.json is invalid: ") {
				t.Errorf("message %q does not name orc.json", ie.Error())
			}
			if tt.fault != "" && !strings.Contains(ie.Error(), tt.fault) {
				t.Errorf("message %q does not mention %q", ie.Error(), tt.fault)
			}
		})
	}
}

// TestParseRefusesCaseVariantKeys: encoding/json matches field names
// case-insensitively, so without a guard "Status" is taken for "status" and,
// after it, silently overrides it, which is exactly the last-wins duplicate
// that strict parsing exists to refuse (docs/protocol.md §4: an undeclared field is
// invalid state).
func TestParseRefusesCaseVariantKeys(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		{"case-variant duplicate of status", []byte(strings.Replace(string(withEntry(t, nil)), `"status":"in_progress"`, `"status":"in_progress","Status":"paused"`, 1))},
		{"case-variant duplicate of schema", []byte(`{"schema":1,"SCHEMA":1,"sessions":[]}`)},
		{"undeclared spelling of sessionId", []byte(strings.Replace(string(withEntry(t, nil)), `"sessionId"`, `"sessionid"`, 1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.data)
			if err == nil {
				t.Fatalf("Parse accepted %s as %+v", tt.data, r)
			}
			wantInvalid(t, err, Damaged)
		})
	}
}

// TestParseRefusesFractionalSeconds: time.Parse accepts a fractional second
// even when the layout has none, so "…05.5Z" passes as TimeLayout although
// the format is UTC to the second; such stamps also sort before "…05Z" as
// strings, so "newest first" comparisons go wrong.
func TestParseRefusesFractionalSeconds(t *testing.T) {
	for _, v := range []string{"2026-01-02T15:04:05.5Z", "2026-01-02T15:04:05.000Z", "2026-01-02T15:04:05,5Z"} {
		for _, field := range []string{"startedAt", "updatedAt"} {
			t.Run(field+" "+v, func(t *testing.T) {
				_, err := Parse(withEntry(t, set(field, v)))
				if err == nil {
					t.Fatalf("Parse accepted %s %q", field, v)
				}
				wantInvalid(t, err, Damaged)
			})
		}
	}
}

func TestMarshal(t *testing.T) {
	t.Run("no HTML escaping", func(t *testing.T) {
		r, err := Parse(withEntry(t, func(e map[string]any) {
			e["description"] = "a <b> & c"
			e["phaseLabel"] = "x>y"
		}))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"description": "a <b> & c"`, `"phaseLabel": "x>y"`} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("Marshal output lacks %s:\n%s", want, out)
			}
		}
		if bytes.Contains(out, []byte(`\u003c`)) || bytes.Contains(out, []byte(`\u0026`)) {
			t.Errorf("Marshal escaped HTML characters:\n%s", out)
		}
	})
	t.Run("indent and trailing newline", func(t *testing.T) {
		out, err := (&Registry{Schema: 1}).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if want := "{\n  \"schema\": 1,\n  \"sessions\": []\n}\n"; string(out) != want {
			t.Errorf("Marshal(empty) = %q, want %q", out, want)
		}
	})
	t.Run("empty registry parses back", func(t *testing.T) {
		out, _ := (&Registry{Schema: 1}).Marshal()
		if _, err := Parse(out); err != nil {
			t.Errorf("Parse(Marshal(empty)) = %v", err)
		}
	})
}

func TestCanonical(t *testing.T) {
	r, err := Parse(readTestdata(t, "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Sessions {
		s := &r.Sessions[i]
		c := s.Canonical()
		if !bytes.HasSuffix(c, []byte("}\n")) || bytes.Count(c, []byte("\n")) != 1 {
			t.Errorf("Canonical(%s) is not one compact line: %q", s.SessionID, c)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, c); err != nil {
			t.Fatalf("Canonical(%s) is not JSON: %v", s.SessionID, err)
		}
		if !bytes.Equal(compact.Bytes(), bytes.TrimSuffix(c, []byte("\n"))) {
			t.Errorf("Canonical(%s) is not compact:\n%s", s.SessionID, c)
		}
		if !bytes.Equal(c, s.Canonical()) {
			t.Errorf("Canonical(%s) is not stable", s.SessionID)
		}
		if i == 0 && !bytes.Contains(c, []byte("SSO <login> & café")) {
			t.Errorf("Canonical escapes HTML or non-ASCII: %s", c)
		}
		var back Session
		if err := json.Unmarshal(c, &back); err != nil || !reflect.DeepEqual(back, *s) {
			t.Errorf("Canonical(%s) does not decode to the entry (%v)", s.SessionID, err)
		}
	}
	a, b := r.Sessions[0], r.Sessions[0]
	label := "other"
	b.PhaseLabel = &label
	if bytes.Equal(a.Canonical(), b.Canonical()) {
		t.Error("Canonical does not change when a field changes")
	}
}

func TestFindAndRemove(t *testing.T) {
	r, err := Parse(readTestdata(t, "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, want string
	}{
		{"feat-sso-login", "feat-sso-login"},
		{"feat/sso login", "feat-sso-login"},
		{"feat-billing", "feat-billing"},
		{"feat/billing", "feat-billing"},
		{"feat-sso login", ""}, // neither the key nor the raw branch
		{"feat/sso-login", ""},
		{"FEAT-BILLING", ""},
		{"", ""},
		{"missing", ""},
	}
	for _, tt := range tests {
		got := r.Find(tt.key)
		switch {
		case tt.want == "" && got != nil:
			t.Errorf("Find(%q) = %q, want nil", tt.key, got.SessionID)
		case tt.want != "" && (got == nil || got.SessionID != tt.want):
			t.Errorf("Find(%q) = %v, want %q", tt.key, got, tt.want)
		}
	}

	// Find returns the stored entry, not a copy.
	r.Find("feat/billing").Status = "completed"
	if r.Sessions[1].Status != "completed" {
		t.Error("a change through Find's pointer did not reach the registry")
	}

	// sessionId wins over gitBranch.
	odd := &Registry{Schema: 1, Sessions: []Session{{SessionID: "a", GitBranch: "b"}, {SessionID: "b", GitBranch: "b"}}}
	if got := odd.Find("b"); got == nil || got != &odd.Sessions[1] {
		t.Errorf("Find preferred a gitBranch match over a sessionId match: %+v", got)
	}

	if r.Remove("missing") {
		t.Error("Remove(missing) = true")
	}
	if r.Remove("feat/sso login") {
		t.Error("Remove takes a sessionId, but removed by gitBranch")
	}
	if !r.Remove("feat-sso-login") {
		t.Fatal("Remove(feat-sso-login) = false")
	}
	if len(r.Sessions) != 1 || r.Sessions[0].SessionID != "feat-billing" || r.Find("feat-sso-login") != nil {
		t.Fatalf("after Remove: %+v", r.Sessions)
	}
	if r.Remove("feat-sso-login") {
		t.Error("second Remove = true")
	}
	if !r.Remove("feat-billing") || len(r.Sessions) != 0 {
		t.Fatalf("after removing the last: %+v", r.Sessions)
	}
	out, err := r.Marshal()
	if err != nil || !bytes.Contains(out, []byte(`"sessions": []`)) {
		t.Errorf("empty registry marshals as %s (%v)", out, err)
	}
}

func TestStrDeref(t *testing.T) {
	if Str("") != nil {
		t.Error(`Str("") != nil`)
	}
	if p := Str("x"); p == nil || *p != "x" {
		t.Errorf(`Str("x") = %v`, p)
	}
	if Deref(nil) != "" || Deref(Str("y")) != "y" {
		t.Error("Deref")
	}
	// A time in another zone, with nanoseconds, is stamped in UTC to the second.
	at := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.FixedZone("east", 5*3600))
	if got := Stamp(at); got != "2026-05-06T02:08:09Z" {
		t.Errorf("Stamp(%v) = %q", at, got)
	}
	if _, err := Parse(withEntry(t, set("updatedAt", Stamp(at)))); err != nil {
		t.Errorf("Stamp(%v) = %q does not validate: %v", at, Stamp(at), err)
	}
}

func TestForBranch(t *testing.T) {
	r := &Registry{Schema: 1, Sessions: []Session{
		{SessionID: "con", GitBranch: "con"},   // an earlier version's key
		{SessionID: "aux-", GitBranch: "aux"},  // this version's
		{SessionID: "con-", GitBranch: "con-"}, // another branch on the portable key of "con"
	}}
	for branch, want := range map[string]string{"con": "con", "aux": "aux-", "con-": "con-", "nul": "", "CON": ""} {
		got := r.ForBranch(branch)
		switch {
		case want == "" && got != nil:
			t.Errorf("ForBranch(%q) = %q, want nil", branch, got.SessionID)
		case want != "" && (got == nil || got.SessionID != want):
			t.Errorf("ForBranch(%q) = %v, want %q", branch, got, want)
		}
	}
}

// TestFolderCollisions: entries whose sessionIds are one folder on macOS
// or Windows are grouped, in registry order, each group once.
func TestFolderCollisions(t *testing.T) {
	ids := func(groups [][]*Session) [][]string {
		var out [][]string
		for _, g := range groups {
			var ids []string
			for _, s := range g {
				ids = append(ids, s.SessionID)
			}
			out = append(out, ids)
		}
		return out
	}
	reg := func(ids ...string) *Registry {
		r := &Registry{Schema: 1}
		for _, id := range ids {
			r.Sessions = append(r.Sessions, Session{SessionID: id, GitBranch: id})
		}
		return r
	}
	tests := []struct {
		name string
		reg  *Registry
		want [][]string
	}{
		{"none", reg("main", "feat-x", "feat_x", "feat-x-"), nil},
		{"a pair", reg("feat-x", "main", "Feat-X"), [][]string{{"feat-x", "Feat-X"}}},
		{"three of one name", reg("a", "FEAT-X", "feat-x", "Feat-x"), [][]string{{"FEAT-X", "feat-x", "Feat-x"}}},
		{"two groups", reg("B", "a", "b", "A"), [][]string{{"B", "b"}, {"a", "A"}}},
		{"a trailing dot an earlier version kept", reg("v1", "v1."), [][]string{{"v1", "v1."}}},
		{"the portable key is another folder", reg("v1", "v1.-"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(tt.reg.FolderCollisions())
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FolderCollisions() = %q, want %q", got, tt.want)
			}
			for _, g := range tt.want {
				if s := tt.reg.SameFolder(g[0]); s == nil || s.SessionID == g[0] {
					t.Errorf("SameFolder(%q) = %v, want another of %q", g[0], s, g)
				}
			}
			if s := tt.reg.SameFolder("main"); s != nil {
				t.Errorf("SameFolder(main) = %q, want nil", s.SessionID)
			}
		})
	}
}

// TestExactMatchesOnlySessionID: Exact finds an entry by its sessionId,
// never by a gitBranch that happens to equal the key, and nil for none.
func TestExactMatchesOnlySessionID(t *testing.T) {
	r := &Registry{Sessions: []Session{
		{SessionID: "feat-a", GitBranch: "feat/a"},
		{SessionID: "feat-b", GitBranch: "feat-a-branch"},
		{SessionID: "main", GitBranch: "feat-c"},
		{SessionID: "feat-c", GitBranch: "other"},
	}}
	for _, c := range []struct {
		key, want string
	}{
		{"feat-a", "feat-a"},
		{"feat/a", ""},        // a gitBranch, not a sessionId
		{"feat-a-branch", ""}, // likewise
		{"feat-c", "feat-c"},  // the sessionId wins over the entry whose branch it is
		{"FEAT-A", ""},        // case matters
		{"", ""},
	} {
		got := r.Exact(c.key)
		switch {
		case c.want == "" && got != nil:
			t.Errorf("Exact(%q) = %q, want nil", c.key, got.SessionID)
		case c.want != "" && (got == nil || got.SessionID != c.want):
			t.Errorf("Exact(%q) = %v, want %q", c.key, got, c.want)
		case got != nil && got != &r.Sessions[indexOf(r, c.want)]:
			t.Errorf("Exact(%q) returned a copy, want the entry itself", c.key)
		}
	}
	if (&Registry{}).Exact("x") != nil {
		t.Error("Exact on an empty registry found something")
	}
}

func indexOf(r *Registry, id string) int {
	for i := range r.Sessions {
		if r.Sessions[i].SessionID == id {
			return i
		}
	}
	return -1
}
