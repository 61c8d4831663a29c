//go:build e2e && unix

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/e2e/client"
	"github.com/orc-state/orc-state/e2e/mockapi"
	"github.com/orc-state/orc-state/internal/version"
)

// marker is in the session's Resume digest: the resume packet carries it,
// the startup banner does not.
const marker = "e2e-digest-marker-5d1c"

// packetOnce is in each resume packet once, in its digest (the marker is
// twice: in the glance's Next line and in the digest).
const packetOnce = "- Done: phase 1 (scope agreed)"

// userTitle is the name the user gives the session (claude -n).
const userTitle = "e2e-chosen-name"

// buildWait bounds the launcher's background build of orc-state.
const buildWait = 3 * time.Minute

// TestClaudeCode runs the pinned client against the mock API with the
// plugin loaded from this checkout (--plugin-dir) and, separately,
// installed through the repository's own marketplace.
func TestClaudeCode(t *testing.T) {
	start := time.Now()
	r := newRig(t)
	t.Run("PluginDir", r.pluginDir)
	t.Run("Subagents", r.subagents)
	t.Run("Marketplace", r.marketplace)
	t.Run("ProjectStatusline", r.projectStatusline)
	t.Logf("end-to-end wall time %v (client %s)", time.Since(start).Round(time.Millisecond), client.Version)
}

type rig struct {
	t       *testing.T
	root    string // the checkout: the plugin and its marketplace
	tmp     string
	claude  string // the client binary
	orc     string // an orc-state for setting up the project; never on the client's PATH
	project string // a git repository with a live orc-state session
	sid     string // its orc-state session id
	mock    *mockapi.Server
	reqLog  string
	path    string   // the client's PATH: no orc-state anywhere on it
	goEnv   []string // Go's caches, shared with this machine's so the launcher's build is warm
	extra   []string // more environment for the client (nogo_test.go: the release URL)
}

func newRig(t *testing.T) *rig {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, root: root, tmp: t.TempDir()}

	cache, err := client.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	var npmLog bytes.Buffer
	began := time.Now()
	r.claude, err = client.Install(cache, client.Version, &npmLog)
	if err != nil {
		t.Fatalf("installing the Claude Code client: %v\n%s", err, npmLog.String())
	}
	t.Logf("client %s at %s (ready in %v)", client.Version, r.claude, time.Since(began).Round(time.Millisecond))

	// Go's caches from this machine (the isolated HOME would start them
	// cold); GOPATH empty, so $(go env GOPATH)/bin holds no orc-state.
	for _, k := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		r.goEnv = append(r.goEnv, k+"="+strings.TrimSpace(string(out)))
	}
	r.goEnv = append(r.goEnv, "GOPATH="+filepath.Join(r.tmp, "gopath"), "GOTOOLCHAIN=local", "GOFLAGS=", "GOBIN=")

	// The client's PATH: this one without any folder holding an orc-state.
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "orc-state")); err == nil || d == "" {
			continue
		}
		keep = append(keep, d)
	}
	r.path = strings.Join(keep, string(os.PathListSeparator))
	for _, tool := range []string{"go", "git", "sh"} {
		if _, err := lookPath(tool, r.path); err != nil {
			t.Fatalf("%s is not on PATH; the plugin's launcher needs it", tool)
		}
	}

	// Build orc-state the way the launcher does, so its build finds the
	// packages compiled.
	r.orc = filepath.Join(r.tmp, "tools", "orc-state")
	build := exec.Command("go", "build", "-o", r.orc, "./cmd/orc-state")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// The launcher's download goes to a closed port on 127.0.0.1 (never
	// the network), so these tests see it fail at once and build instead;
	// nogo_test.go serves it.
	r.extra = []string{"ORC_STATE_RELEASE_URL=http://127.0.0.1:9/no-release"}

	r.reqLog = filepath.Join(r.tmp, "requests.jsonl")
	r.mock, err = mockapi.Start("127.0.0.1:0", r.reqLog)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.mock.Close() })

	// The project: a repository with a live session and a digest.
	r.project = filepath.Join(r.tmp, "project")
	r.git("init", "-q", "-b", "main", r.project)
	if err := os.WriteFile(filepath.Join(r.project, "README"), []byte("project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git("-C", r.project, "add", "README")
	r.git("-C", r.project, "commit", "-q", "-m", "first commit")
	r.sid = strings.TrimSpace(r.orcState("", "init", "--command", "flow", "--total-phases", "3"))
	r.orcState("", "phase", "set", "2", "--label", "build")
	r.orcState(packetOnce+"\n- Next: phase 2, "+marker+"\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n",
		"digest", "write", "-")
	return r
}

// pluginDir: the plugin loaded from the checkout.
func (r *rig) pluginDir(t *testing.T) {
	home := r.home(t, "home-plugin-dir")
	data := filepath.Join(home, ".claude", "plugins", "data", "orc-state-inline")
	load := []string{"--plugin-dir", r.root}

	// First use: no orc-state anywhere, so SessionStart starts the build in
	// the background, says so, and the session goes on.
	n := r.requestCount()
	began := time.Now()
	r.print(t, home, append(load, "first contact")...)
	firstRun := time.Since(began)
	first := r.requestsSince(n)
	if len(first) == 0 {
		t.Fatal("the client sent no request")
	}
	if c := strings.Count(first[0].text, "is registered for this branch"); c != 0 {
		t.Errorf("the banner reached the model before orc-state was built (%d times)", c)
	}
	r.waitForBuild(t, data)
	t.Logf("first session %v; the launcher's build was ready %v after it started", firstRun.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))

	// A named session of four turns, compacted in the middle.
	s := r.start(t, home, append(load, "-n", userTitle)...)
	n = r.requestCount()
	s.send("hello")
	turn := r.requestsSince(n)
	if len(turn) == 0 {
		t.Fatal("no request for the first turn")
	}
	if c := strings.Count(turn[0].text, "orc-state: session "+r.sid); c != 1 {
		t.Errorf("the SessionStart banner reached the model %d times in the first request, want 1:\n%s", c, excerpt(turn[0].text, "SessionStart"))
	}
	if strings.Contains(turn[0].text, marker) {
		t.Error("the startup banner carries the resume packet")
	}

	n = r.requestCount()
	s.send("RUN: git status --short")
	if turn := r.requestsSince(n); len(turn) < 2 || !strings.Contains(turn[len(turn)-1].text, "tool_result") {
		t.Errorf("the Bash tool call did not come back as a tool_result (%d requests)", len(turn))
	}

	checkpoint := filepath.Join(r.project, ".orc", r.sid, "files", "checkpoint.md")
	if b, _ := os.ReadFile(checkpoint); bytes.Contains(b, []byte("(trigger: manual)")) {
		t.Fatal("an Auto-checkpoint with trigger manual exists before /compact")
	}
	s.send("/compact")
	b, err := os.ReadFile(checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("## Auto-checkpoint")) || !bytes.Contains(b, []byte("(trigger: manual)")) {
		t.Errorf("PreCompact wrote no Auto-checkpoint:\n%s", b)
	}

	n = r.requestCount()
	s.send("after compaction")
	turn = r.requestsSince(n)
	if len(turn) == 0 {
		t.Fatal("no request after /compact")
	}
	if c := strings.Count(turn[0].text, packetOnce); c != 1 {
		t.Errorf("the first request after /compact carries the resume packet %d times, want 1:\n%s", c, excerpt(turn[0].text, "SessionStart"))
	}
	s.close()
	transcript := s.transcript()
	r.assertTitle(t, transcript, userTitle, "after startup and /compact")

	// Resume it: the packet again, fresh (SessionEnd rewrote the
	// Auto-checkpoint when the session closed), exactly once; the client
	// also replays the packet injected after /compact, which is now stale
	// and no longer the same text. The name survives.
	n = r.requestCount()
	r.print(t, home, append(load, "--resume", s.id, "resumed")...)
	turn = r.requestsSince(n)
	if len(turn) == 0 {
		t.Fatal("no request after --resume")
	}
	last := turn[len(turn)-1].text
	if c := strings.Count(last, "(trigger: session-end)"); c != 1 {
		t.Errorf("the request after --resume carries the fresh resume packet %d times, want 1", c)
	}
	if c := strings.Count(last, packetOnce); c < 1 || c > 2 {
		t.Errorf("the request after --resume carries %d resume packets, want the fresh one and at most the replayed one", c)
	}
	r.assertTitle(t, transcript, userTitle, "after --resume")

	// A session the user did not name gets orc's title.
	out := r.print(t, home, append(load, "--output-format", "json", "unnamed")...)
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("no session id in the client's JSON result: %v\n%s", err, out)
	}
	titles := customTitles(t, transcriptPath(home, r.project, res.SessionID))
	if len(titles) == 0 || !strings.HasPrefix(titles[len(titles)-1], "orc: ") {
		t.Errorf("an unnamed session's titles are %q; want orc's", titles)
	}
}

// subagents: the SubagentStart hook tells a subagent its session, its
// agent id and the claim protocol; the subagent's first request carries
// it, the parent's requests do not. Once in the project's own worktree,
// once in a worktree the client makes for the subagent (isolation:
// worktree), which has no session of its own. Runs after pluginDir, whose
// home has the launcher's build.
func (r *rig) subagents(t *testing.T) {
	home := filepath.Join(r.tmp, "home-plugin-dir")
	load := []string{"--plugin-dir", r.root}
	context := "orc-state: this subagent works for the workflow session " + r.sid + " (flow, phase 2/3, branch main); its agent id for slice claims is general-purpose-"
	claimCmd := regexp.MustCompile("`orc-state slice claim --session=" + regexp.QuoteMeta(r.sid) + " --agent=general-purpose-[0-9a-f]+`")
	for _, tc := range []struct{ name, prompt string }{
		{"shared worktree", "AGENT: e2e-subagent-task-1 says ok"},
		{"worktree of its own", "AGENT-WORKTREE: e2e-subagent-task-2 says ok"},
	} {
		n := r.requestCount()
		r.print(t, home, append(load, tc.prompt)...)
		var carried []request
		for _, q := range r.requestsSince(n) {
			if strings.Contains(q.text, context) {
				carried = append(carried, q)
			}
		}
		switch {
		case len(carried) != 1:
			t.Errorf("%s: %d requests carry the subagent's context, want 1 (the subagent's first)", tc.name, len(carried))
		case strings.Contains(carried[0].text, "AGENT"):
			t.Errorf("%s: the context reached the parent's request, not the subagent's:\n%s", tc.name, excerpt(carried[0].text, context))
		case !claimCmd.MatchString(carried[0].text):
			t.Errorf("%s: the context has no claim command naming the session and the agent:\n%s", tc.name, excerpt(carried[0].text, context))
		}
	}
}

// marketplace: the plugin installed through the repository's marketplace,
// then a session; the launcher finds its data dir without Claude Code's
// variables too (the agent's Bash tool has none of them).
func (r *rig) marketplace(t *testing.T) {
	home := r.home(t, "home-marketplace")
	r.claudeCmd(t, home, r.tmp, "plugin", "marketplace", "add", r.root)
	r.claudeCmd(t, home, r.tmp, "plugin", "install", "orc-state@orc-state")
	list := r.claudeCmd(t, home, r.tmp, "plugin", "list")
	if !strings.Contains(list, "orc-state@orc-state") {
		t.Fatalf("plugin list does not show orc-state@orc-state:\n%s", list)
	}
	installed := filepath.Join(home, ".claude", "plugins", "cache", "orc-state", "orc-state", version.Release())
	if _, err := os.Stat(filepath.Join(installed, "bin", "orc-state")); err != nil {
		t.Fatalf("the installed plugin has no launcher: %v", err)
	}
	data := filepath.Join(home, ".claude", "plugins", "data", "orc-state-orc-state")

	r.print(t, home, "first contact")
	r.waitForBuild(t, data)

	n := r.requestCount()
	r.print(t, home, "hello")
	turn := r.requestsSince(n)
	if len(turn) == 0 || strings.Count(turn[0].text, "orc-state: session "+r.sid) != 1 {
		t.Errorf("the SessionStart banner did not reach the model once from the installed plugin")
	}

	// The launcher outside a hook: no CLAUDE_PLUGIN_DATA, no orc-state on
	// PATH; it must find the binary its hook built, not build another.
	cmd := exec.Command("sh", filepath.Join(installed, "bin", "orc-state"), "version")
	cmd.Dir = r.project
	cmd.Env = append(client.Env(home, r.tmp, r.mock.URL, "PATH="+r.path, "ORC_STATE_LAUNCHER_DEBUG=1"), r.goEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("launcher version: %v\n%s", err, stderr.String())
	}
	if !strings.HasPrefix(string(out), "orc-state "+version.Release()+" ") {
		t.Errorf("launcher version printed %q", out)
	}
	if want := "running " + filepath.Join(data, "bin", "orc-state"); !strings.Contains(stderr.String(), want) {
		t.Errorf("the launcher outside a hook did not use the hook's build (%s):\n%s", want, stderr.String())
	}
}

// waitForBuild waits for the launcher's background build to be stamped
// with this release.
func (r *rig) waitForBuild(t *testing.T, data string) {
	t.Helper()
	stamp := filepath.Join(data, "bin", "orc-state.version")
	deadline := time.Now().Add(buildWait)
	for {
		if b, err := os.ReadFile(stamp); err == nil && strings.TrimSpace(string(b)) == version.Release() {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(data, "build.log"))
			t.Fatalf("the launcher built no orc-state into %s within %v; build.log:\n%s", data, buildWait, log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (r *rig) assertTitle(t *testing.T, transcript, want, when string) {
	t.Helper()
	titles := customTitles(t, transcript)
	if len(titles) == 0 {
		t.Errorf("%s: the transcript has no title; want %q", when, want)
	}
	for _, got := range titles {
		if got != want {
			t.Errorf("%s: the session's title became %q; the user chose %q (titles in order: %q)", when, got, want, titles)
			return
		}
	}
}

// customTitles lists the titles a transcript records, in order.
func customTitles(t *testing.T, transcript string) []string {
	t.Helper()
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("transcript: %v", err)
	}
	var titles []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		var e struct {
			Type        string `json:"type"`
			CustomTitle string `json:"customTitle"`
		}
		if json.Unmarshal(line, &e) == nil && e.Type == "custom-title" {
			titles = append(titles, e.CustomTitle)
		}
	}
	return titles
}

// transcriptPath is where the client keeps a session's transcript.
func transcriptPath(home, cwd, sessionID string) string {
	mangled := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(cwd, "-")
	return filepath.Join(home, ".claude", "projects", mangled, sessionID+".jsonl")
}

// home makes an isolated HOME in which the client trusts the project.
func (r *rig) home(t *testing.T, name string) string {
	home := filepath.Join(r.tmp, name)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	return home
}

func (r *rig) env(home string) []string {
	env := client.Env(home, r.tmp, r.mock.URL, "PATH="+r.path,
		"GIT_AUTHOR_NAME=orc-state e2e", "GIT_AUTHOR_EMAIL=e2e@orc-state.invalid",
		"GIT_COMMITTER_NAME=orc-state e2e", "GIT_COMMITTER_EMAIL=e2e@orc-state.invalid")
	return append(append(env, r.goEnv...), r.extra...)
}

// claudeCmd runs the client with args and returns its stdout; it fails
// the test on a non-zero exit.
func (r *rig) claudeCmd(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(r.claude, args...)
	cmd.Dir = dir
	cmd.Env = r.env(home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("claude %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("claude %s did not finish in 90 s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	return stdout.String()
}

// print runs one non-interactive turn in the project.
func (r *rig) print(t *testing.T, home string, args ...string) string {
	t.Helper()
	return r.claudeCmd(t, home, r.project, append([]string{"-p"}, args...)...)
}

// session is a client in stream-json mode: one turn at a time.
type session struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte
	err   bytes.Buffer
	id    string
	path  string // transcript
}

func (r *rig) start(t *testing.T, home string, args ...string) *session {
	t.Helper()
	args = append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"}, args...)
	s := &session{t: t, cmd: exec.Command(r.claude, args...), lines: make(chan []byte, 1024)}
	s.cmd.Dir = r.project
	s.cmd.Env = r.env(home)
	s.cmd.Stderr = &s.err
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			s.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(s.lines)
	}()
	t.Cleanup(func() { s.cmd.Process.Kill() })
	return s
}

// send writes one user message and waits for the turn's result.
func (s *session) send(prompt string) {
	s.t.Helper()
	msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}})
	if _, err := s.stdin.Write(append(msg, '\n')); err != nil {
		s.t.Fatalf("writing %q: %v\n%s", prompt, err, s.err.String())
	}
	timeout := time.After(90 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the client exited during %q:\n%s", prompt, s.err.String())
			}
			var ev struct {
				Type           string `json:"type"`
				Subtype        string `json:"subtype"`
				SessionID      string `json:"session_id"`
				IsError        bool   `json:"is_error"`
				TranscriptPath string `json:"transcript_path"`
			}
			if json.Unmarshal(line, &ev) != nil {
				continue
			}
			if ev.SessionID != "" {
				s.id = ev.SessionID
			}
			if ev.Type == "result" {
				if ev.IsError {
					s.t.Fatalf("turn %q failed: %s", prompt, line)
				}
				return
			}
		case <-timeout:
			s.t.Fatalf("no result for %q in 90 s:\n%s", prompt, s.err.String())
		}
	}
}

// close ends the session and waits for the client to exit.
func (s *session) close() {
	s.t.Helper()
	s.stdin.Close()
	done := make(chan error, 1)
	go func() {
		for range s.lines {
		}
		done <- s.cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			s.t.Errorf("the client exited with %v:\n%s", err, s.err.String())
		}
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		s.t.Errorf("the client did not exit within 30 s of its input closing")
	}
}

func (s *session) transcript() string {
	if s.id == "" {
		s.t.Fatal("the client never said its session id")
	}
	env := s.cmd.Env
	home, cwd := "", s.cmd.Dir
	for _, kv := range env {
		if strings.HasPrefix(kv, "HOME=") {
			home = strings.TrimPrefix(kv, "HOME=")
		}
	}
	return transcriptPath(home, cwd, s.id)
}

// request is one logged request, with its body as text for searching.
type request struct {
	path string
	text string
}

func (r *rig) requestCount() int { return len(r.requests()) }

func (r *rig) requestsSince(n int) []request { return r.requests()[n:] }

// requests reads the mock's log: the Messages API calls, in order.
func (r *rig) requests() []request {
	data, err := os.ReadFile(r.reqLog)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []request
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var q mockapi.Request
		if err := json.Unmarshal(line, &q); err != nil {
			r.t.Fatalf("request log: %v", err)
		}
		if q.Path != "/v1/messages" {
			continue
		}
		// Decode the body's strings so that a search sees the text the
		// model sees, not its JSON escapes.
		var body any
		json.Unmarshal(q.Body, &body)
		var b strings.Builder
		walkStrings(body, &b)
		out = append(out, request{path: q.Path, text: b.String()})
	}
	return out
}

func walkStrings(v any, b *strings.Builder) {
	switch x := v.(type) {
	case string:
		b.WriteString(x)
		b.WriteByte('\n')
	case []any:
		for _, e := range x {
			walkStrings(e, b)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, b)
		}
	}
}

func (r *rig) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@orc-state.invalid",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@orc-state.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func (r *rig) orcState(stdin string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command(r.orc, args...)
	cmd.Dir = r.project
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("orc-state %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func lookPath(name, path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// excerpt shows the text around the first occurrence of key.
func excerpt(text, key string) string {
	i := strings.Index(text, key)
	if i < 0 {
		if len(text) > 600 {
			return text[:600] + "…"
		}
		return text
	}
	end := min(len(text), i+900)
	return text[max(0, i-100):end]
}

// projectStatusline: the statusLine that `install --project` commits is
// shown by the client's TUI on this machine, where orc-state is on no PATH
// and only the plugin's launcher built it (the marketplace subtest's data
// dir). The TUI needs a terminal: tmux.
func (r *rig) projectStatusline(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux to give the client's TUI a terminal")
	}
	home := filepath.Join(r.tmp, "home-marketplace")
	r.orcState("", "install", "--project")
	t.Cleanup(func() { os.RemoveAll(filepath.Join(r.project, ".claude")) })

	// The TUI asks nothing of a person who has been through onboarding and
	// trusts the project and the key.
	cfg := filepath.Join(home, ".claude.json")
	var state map[string]any
	if b, err := os.ReadFile(cfg); err == nil {
		json.Unmarshal(b, &state)
	}
	if state == nil {
		state = map[string]any{}
	}
	key := "sk-ant-orc-state-e2e-dummy"
	state["hasCompletedOnboarding"] = true
	state["theme"] = "dark"
	state["customApiKeyResponses"] = map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}}
	projects, _ := state["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	projects[r.project] = map[string]any{"hasTrustDialogAccepted": true}
	state["projects"] = projects
	b, _ := json.Marshal(state)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}

	sock := filepath.Join(r.tmp, "tmux.sock")
	tm := func(args ...string) *exec.Cmd {
		c := exec.Command(tmux, append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = append(r.env(home), "TERM=xterm-256color")
		return c
	}
	if out, err := tm("new-session", "-d", "-x", "150", "-y", "30", "-s", "e2e", "-c", r.project, r.claude).CombinedOutput(); err != nil {
		t.Skipf("tmux cannot start a session here: %v %s", err, out)
	}
	pidOut, _ := tm("display-message", "-p", "-t", "e2e", "#{pane_pid}").Output()
	defer func() {
		// /exit, then make sure the client is gone before its HOME is removed.
		tm("send-keys", "-t", "e2e", "C-u", "/exit", "Enter").Run()
		var pid int
		fmt.Sscan(string(pidOut), &pid)
		for end := time.Now().Add(15 * time.Second); pid > 0 && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			if syscall.Kill(pid, 0) != nil {
				break
			}
		}
		tm("kill-server").Run()
	}()
	deadline := time.Now().Add(60 * time.Second)
	var screen []byte
	for time.Now().Before(deadline) {
		screen, _ = tm("capture-pane", "-p", "-t", "e2e").Output()
		if bytes.Contains(screen, []byte("orc flow 2/3")) {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	settings, _ := os.ReadFile(filepath.Join(r.project, ".claude", "settings.json"))
	t.Errorf("the TUI never showed orc's statusline from the project's settings:\n%s\nsettings:\n%s", screen, settings)
}
