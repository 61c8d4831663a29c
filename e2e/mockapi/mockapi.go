// Package mockapi is a small stand-in for the Anthropic Messages API, for
// running the real Claude Code client against on 127.0.0.1 in the end-to-end
// test. It logs every request body and answers with canned, streamed
// assistant turns whose shape the test steers from its prompts:
//
//   - a user text containing "RUN: <shell command>" (to the end of the line)
//     is answered with one Bash tool_use running that command; the tool's
//     result is then answered with plain text;
//   - a user text containing "AGENT: <prompt>" is answered with one Agent
//     tool_use starting a general-purpose subagent (in the foreground) on
//     that prompt; "AGENT-WORKTREE: <prompt>" asks for it in a worktree of
//     its own (isolation: worktree);
//   - a user text containing "CTX: <n>" reports n input tokens in the
//     usage, so the client's context meter (statusline, auto-compact)
//     sees a large context;
//   - anything else is answered with the text "ok".
//
// It handles both streaming (SSE) and non-streaming requests. It never
// makes a network request of its own.
package mockapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Request is one logged request.
type Request struct {
	Seq    int             `json:"seq"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// Server is a running mock. Its log is a JSON Lines file, one Request per line.
type Server struct {
	URL string

	ln      net.Listener
	srv     *http.Server
	mu      sync.Mutex
	seq     int
	logFile *os.File
}

// Start listens on 127.0.0.1 (addr "127.0.0.1:0" picks a free port) and logs
// requests to logPath, appending.
func Start(addr, logPath string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		f.Close()
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, logFile: f}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle)}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and closes the log.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if cerr := s.logFile.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *Server) log(r *http.Request, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	rec := Request{Seq: s.seq, Method: r.Method, Path: r.URL.Path}
	if json.Valid(body) {
		rec.Body = body
	}
	line, _ := json.Marshal(rec)
	s.logFile.Write(append(line, '\n'))
}

// messagesRequest is the part of a Messages API request the mock reads.
type messagesRequest struct {
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []message `json:"messages"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Content json.RawMessage `json:"content"`
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.log(r, body)
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": 100})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": err.Error()}})
			return
		}
		turn := plan(req)
		if req.Stream {
			stream(w, req.Model, turn)
		} else {
			writeJSON(w, whole(req.Model, turn))
		}
	default:
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"type": "error", "error": map[string]any{"type": "not_found_error", "message": "mockapi: no such endpoint"}})
	}
}

// turn is the assistant reply the mock gives.
type turn struct {
	text        string
	toolCommand string // non-empty: reply with a Bash tool_use
	agentPrompt string // non-empty: reply with an Agent tool_use
	isolated    bool   // the Agent tool_use asks for a worktree
	inputTokens int
}

var (
	runRE   = regexp.MustCompile(`RUN: ([^\n]+)`)
	agentRE = regexp.MustCompile(`AGENT(-WORKTREE)?: ([^\n]+)`)
	ctxRE   = regexp.MustCompile(`CTX: (\d+)`)
)

// plan decides the reply from the last message: a user text asking for a
// command gets a tool_use, everything else (a tool result included) "ok".
func plan(req messagesRequest) turn {
	t := turn{text: "ok", inputTokens: 100}
	if len(req.Messages) == 0 {
		return t
	}
	// The client appends "system" role messages (hook output, environment)
	// after the user's text: the turn is decided by the last other message.
	last := req.Messages[len(req.Messages)-1]
	for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role == "system"; i-- {
		if i > 0 {
			last = req.Messages[i-1]
		}
	}
	texts, hasToolResult := userTexts(last)
	all := strings.Join(texts, "\n")
	if m := ctxRE.FindStringSubmatch(all); m != nil {
		t.inputTokens, _ = strconv.Atoi(m[1])
	} else {
		// Keep the context level the conversation asked for earlier.
		for i := len(req.Messages) - 1; i >= 0; i-- {
			tx, _ := userTexts(req.Messages[i])
			if m := ctxRE.FindStringSubmatch(strings.Join(tx, "\n")); m != nil {
				t.inputTokens, _ = strconv.Atoi(m[1])
				break
			}
		}
	}
	if hasToolResult || last.Role != "user" {
		return t
	}
	if m := runRE.FindStringSubmatch(all); m != nil {
		t.toolCommand = strings.TrimSpace(m[1])
		t.text = ""
	} else if m := agentRE.FindStringSubmatch(all); m != nil {
		t.agentPrompt, t.isolated = strings.TrimSpace(m[2]), m[1] != ""
		t.text = ""
	}
	return t
}

// toolUse is the tool a turn calls and its input; ok is false for a turn
// that answers with text.
func (t turn) toolUse() (name string, input map[string]any, ok bool) {
	switch {
	case t.toolCommand != "":
		return "Bash", map[string]any{"command": t.toolCommand, "description": "mock tool call"}, true
	case t.agentPrompt != "":
		in := map[string]any{"description": "mock subagent", "prompt": t.agentPrompt, "subagent_type": "general-purpose", "run_in_background": false}
		if t.isolated {
			in["isolation"] = "worktree"
		}
		return "Agent", in, true
	}
	return "", nil, false
}

// userTexts returns the text blocks of a message and whether it carries a
// tool_result.
func userTexts(m message) ([]string, bool) {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []string{s}, false
	}
	var blocks []block
	if json.Unmarshal(m.Content, &blocks) != nil {
		return nil, false
	}
	var out []string
	tool := false
	for _, b := range blocks {
		switch b.Type {
		case "text":
			out = append(out, b.Text)
		case "tool_result":
			tool = true
		}
	}
	return out, tool
}

func usage(t turn) map[string]any {
	return map[string]any{"input_tokens": t.inputTokens, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

var msgSeq struct {
	sync.Mutex
	n int
}

func nextID(prefix string) string {
	msgSeq.Lock()
	defer msgSeq.Unlock()
	msgSeq.n++
	return fmt.Sprintf("%s_mock%06d", prefix, msgSeq.n)
}

func whole(model string, t turn) map[string]any {
	var content []any
	stop := "end_turn"
	if name, input, ok := t.toolUse(); ok {
		content = append(content, map[string]any{"type": "tool_use", "id": nextID("toolu"), "name": name, "input": input})
		stop = "tool_use"
	} else {
		content = append(content, map[string]any{"type": "text", "text": t.text})
	}
	return map[string]any{
		"id": nextID("msg"), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage(t),
	}
}

func stream(w http.ResponseWriter, model string, t turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriter(w)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", name, b)
	}
	start := usage(t)
	start["output_tokens"] = 1
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": nextID("msg"), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": start,
	}})
	stop := "end_turn"
	if name, in, ok := t.toolUse(); ok {
		stop = "tool_use"
		input, _ := json.Marshal(in)
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": nextID("toolu"), "name": name, "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": t.text}})
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
	bw.Flush()
}
