package mockapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func post(t *testing.T, url string, body any) (*http.Response, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
	}
	return resp, out.String()
}

func userText(s string) map[string]any {
	return map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": s}}}
}

func TestServer(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	s, err := Start("", logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %q is not on the loopback address", s.URL)
	}
	msgs := s.URL + "/v1/messages"

	tests := []struct {
		name     string
		body     map[string]any
		contains []string
		lacks    []string
	}{
		{"plain text, streamed",
			map[string]any{"model": "m", "stream": true, "messages": []any{userText("hello")}},
			[]string{"event: message_start", `"text_delta"`, `"text":"ok"`, `"stop_reason":"end_turn"`, "event: message_stop"},
			[]string{"tool_use"}},
		{"a command becomes a Bash tool_use, past trailing system messages",
			map[string]any{"model": "m", "stream": true, "messages": []any{
				userText("please RUN: git status --short\nthanks"),
				map[string]any{"role": "system", "content": "SessionStart:startup hook success: banner"},
			}},
			[]string{`"type":"tool_use"`, `"name":"Bash"`, `git status --short`, `"stop_reason":"tool_use"`},
			[]string{"thanks"}},
		{"AGENT starts a subagent in the foreground",
			map[string]any{"model": "m", "stream": true, "messages": []any{userText("AGENT: find the tests")}},
			[]string{`"name":"Agent"`, `\"prompt\":\"find the tests\"`, `\"subagent_type\":\"general-purpose\"`, `\"run_in_background\":false`, `"stop_reason":"tool_use"`},
			[]string{"isolation"}},
		{"AGENT-WORKTREE asks for a worktree of its own, not streamed",
			map[string]any{"model": "m", "messages": []any{userText("AGENT-WORKTREE: find the tests")}},
			[]string{`"name":"Agent"`, `"prompt":"find the tests"`, `"isolation":"worktree"`, `"stop_reason":"tool_use"`},
			nil},
		{"a tool result is answered with text",
			map[string]any{"model": "m", "stream": true, "messages": []any{
				userText("RUN: true"),
				map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{}}}},
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": "x"}}},
			}},
			[]string{`"text":"ok"`, `"stop_reason":"end_turn"`},
			[]string{`"stop_reason":"tool_use"`}},
		{"CTX sets the input tokens, and later turns keep it",
			map[string]any{"model": "m", "stream": true, "messages": []any{
				userText("CTX: 850000"),
				map[string]any{"role": "assistant", "content": "ok"},
				map[string]any{"role": "user", "content": "next"},
			}},
			[]string{`"input_tokens":850000`},
			nil},
		{"not streamed",
			map[string]any{"model": "m", "messages": []any{userText("hello")}},
			[]string{`"type":"message"`, `"text":"ok"`},
			[]string{"event:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, out := post(t, msgs, tt.body)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, out)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out, c) {
					t.Errorf("response lacks %q:\n%s", c, out)
				}
			}
			for _, c := range tt.lacks {
				if strings.Contains(out, c) {
					t.Errorf("response has %q:\n%s", c, out)
				}
			}
		})
	}

	if resp, _ := post(t, s.URL+"/v1/other", map[string]any{}); resp.StatusCode != 404 {
		t.Errorf("an unknown endpoint answered %d", resp.StatusCode)
	}
	if resp, _ := post(t, msgs, "not an object"); resp.StatusCode != 400 {
		t.Errorf("a malformed body answered %d", resp.StatusCode)
	}

	// Every request is logged, in order, body included.
	s.Close()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(tests)+2 {
		t.Fatalf("%d requests logged, want %d", len(lines), len(tests)+2)
	}
	for i, l := range lines {
		var r Request
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("log line %d: %v", i+1, err)
		}
		if r.Seq != i+1 {
			t.Errorf("log line %d has seq %d", i+1, r.Seq)
		}
	}
	var first Request
	json.Unmarshal([]byte(lines[0]), &first)
	if first.Path != "/v1/messages" || !bytes.Contains(first.Body, []byte(`"hello"`)) {
		t.Errorf("first logged request is %s %s", first.Path, first.Body)
	}
}
