package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/orc-state/orc-state/internal/clitest"
)

// slRecordedCwd is the working directory the recorded payloads in
// testdata/hooks name; tests point it at a prepared repository.
const slRecordedCwd = "/home/dev/src/shop"

// slMaxContext is Claude Code's cap on additionalContext, counted as
// JavaScript string length (UTF-16 code units), claude-code.md §4.
const slMaxContext = 10000

// slANSI matches the CSI sequences a terminal or tmux emits for styling.
var slANSI = regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]")

// slRig is a rig (clitest.Rig) with a live session, its own home and
// statusline cache, driven by the real binary bin.
type slRig struct {
	*clitest.Rig
	bin string
}

// slNewRig makes a repository on branch main with the session flow, phase
// 1/3 "init", a digest and one commit, driven by the binary bin.
func slNewRig(t *testing.T, bin string) *slRig {
	t.Helper()
	r := &slRig{Rig: clitest.NewRig(t, "git"), bin: bin}
	root := filepath.Dir(r.Dir)
	home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A UTF-8 locale, the default width and a private temp dir for the
	// statusline's cache, whatever the environment running the tests.
	// A cold render waits for git until it answers (ORC_TEST_PLACE_WAIT),
	// so the rows do not depend on the machine's load.
	r.Env = r.Env.With("HOME="+home, "LANG=C.UTF-8", "LC_ALL=", "LC_CTYPE=", "COLUMNS=", "TMPDIR="+tmp, "ORC_TEST_PLACE_WAIT=20s")
	r.MustOrc("", "init", "--command", "flow", "--total-phases", "3")
	r.MustOrc("", "phase", "set", "1", "--label", "init")
	r.MustOrc("- Done: phase 0 planned\n- Next: phase 1 reads files/plan.md\n- Open decisions: none\n- Artifacts: plan.md\n- Suite: unknown\n",
		"digest", "write", "-")
	return r
}

// slPayload returns a recorded payload with its cwd pointed at dir.
func slPayload(t *testing.T, name, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), slRecordedCwd, dir)
}

func (r *slRig) readFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// slRows splits rendered text into rows without trailing blanks and without
// the trailing empty rows of a terminal screen.
func slRows(s string) []string {
	lines := strings.Split(strings.ReplaceAll(s, "\r", ""), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// slRendering is what a terminal showed: the text rows and the raw bytes
// with escape sequences.
type slRendering struct {
	via     string
	text    []string
	escaped string
}

// slRenderer runs a shell command file on a terminal and reports what it
// showed; ok is false when this kind of terminal cannot be used here.
type slRenderer func(t *testing.T, env []string, script string) (slRendering, bool)

const slEndMarker = "__ORC_STATUSLINE_TEST_END__"

var slTmuxSeq atomic.Int64

// slTmux runs script in a detached 100x10 tmux session on a private
// server (its socket in a temporary directory) and captures the pane, as text and with escapes (-e).
func slTmux(t *testing.T, env []string, script string) (slRendering, bool) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		return slRendering{}, false
	}
	sockDir, err := os.MkdirTemp("", "orcsl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	base := []string{"-u", "-S", filepath.Join(sockDir, fmt.Sprintf("tmux-%d", slTmuxSeq.Add(1))), "-f", "/dev/null"}
	tmuxCmd := func(args ...string) *exec.Cmd {
		c := exec.Command(tmux, append(append([]string{}, base...), args...)...)
		c.Env = append(append([]string{}, env...), "TERM=xterm-256color")
		return c
	}
	shell := fmt.Sprintf("sh '%s'; printf '%%s\\n' %s; sleep 60", script, slEndMarker)
	if out, err := tmuxCmd("new-session", "-d", "-x", "100", "-y", "10", "-s", "orc", shell).CombinedOutput(); err != nil {
		t.Logf("tmux cannot start a session here (%v: %s); trying another terminal", err, bytes.TrimSpace(out))
		return slRendering{}, false
	}
	defer tmuxCmd("kill-server").Run()
	deadline := time.Now().Add(10 * time.Second)
	var text string
	for {
		out, err := tmuxCmd("capture-pane", "-p", "-t", "orc").Output()
		if err == nil && strings.Contains(string(out), slEndMarker) {
			text = string(out)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tmux pane never showed the end marker; last capture:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	escaped, err := tmuxCmd("capture-pane", "-p", "-e", "-t", "orc").Output()
	if err != nil {
		t.Fatalf("tmux capture-pane -e: %v", err)
	}
	return slRendering{via: "tmux", text: slBeforeMarker(slRows(text)), escaped: string(escaped)}, true
}

// slScript runs script under script(1) from util-linux, which gives it
// a pseudo-terminal; the escapes are the raw bytes.
func slScript(t *testing.T, env []string, script string) (slRendering, bool) {
	bin, err := exec.LookPath("script")
	if err != nil {
		return slRendering{}, false
	}
	c := exec.Command(bin, "-qec", fmt.Sprintf("sh '%s'; printf '%%s\\n' %s", script, slEndMarker), "/dev/null")
	c.Env = append(append([]string{}, env...), "TERM=xterm-256color")
	c.Stdin = strings.NewReader("")
	out, err := c.Output()
	if err != nil || !strings.Contains(string(out), slEndMarker) {
		t.Logf("script(1) is not usable here (%v); trying a pipe", err)
		return slRendering{}, false
	}
	return slRendering{via: "script", text: slBeforeMarker(slRows(slANSI.ReplaceAllString(string(out), ""))), escaped: string(out)}, true
}

// slPipe runs script with stdout on a pipe: no terminal, but the same
// bytes a host that reads the statusline's stdout gets.
func slPipe(t *testing.T, env []string, script string) (slRendering, bool) {
	c := exec.Command("sh", script)
	c.Env = env
	out, err := c.Output()
	if err != nil {
		t.Logf("sh %s: %v", script, err)
		return slRendering{}, false
	}
	return slRendering{via: "pipe", text: slRows(slANSI.ReplaceAllString(string(out), "")), escaped: string(out)}, true
}

func slBeforeMarker(lines []string) []string {
	for i, l := range lines {
		if strings.Contains(l, slEndMarker) {
			return lines[:i]
		}
	}
	return lines
}

// TestStatusline covers the Claude Code integration with one build of the
// real binary: the statusline on a terminal, every recorded hook payload
// fed to its verb, the payload copies in the hook_* scripts, and the
// plugin's hooks.json.
func TestStatusline(t *testing.T) {
	bin := clitest.Binary(t)
	t.Run("Terminal", func(t *testing.T) { testStatuslineTerminal(t, bin) })
	t.Run("HookPayloads", func(t *testing.T) { testStatuslineHookPayloads(t, bin) })
	t.Run("PayloadCopies", testStatuslinePayloadCopies)
}

// testStatuslineTerminal renders the statusline of the recorded payload on
// a real terminal (tmux, else script(1), else a pipe) and checks the rows a
// user sees, and that colours appear only without NO_COLOR.
func testStatuslineTerminal(t *testing.T, bin string) {
	r := slNewRig(t, bin)
	dir := t.TempDir()
	payloadFile := filepath.Join(dir, "statusline.json")
	if err := os.WriteFile(payloadFile, []byte(slPayload(t, "statusline.json", r.Dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[bool][]string{
		false: {"orc flow 1/3 init | br main | #418 changes | shop", "Opus 4.6 high think | ctx [####------] 42% | $1.87 +214/-37 | 7d 61%"},
		true:  {"orc flow 1/3 init │ ⎇ main │ #418 ✖ changes │ shop", "Opus 4.6 high think │ ctx ▓▓▓▓░░░░░░ 42% │ $1.87 +214/−37 │ 7d 61%"},
	}

	var render slRenderer
	var via string
	probe := filepath.Join(dir, "probe.sh")
	if err := os.WriteFile(probe, []byte("printf 'probe\\n'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cand := range []slRenderer{slTmux, slScript, slPipe} {
		if got, ok := cand(t, r.Env, probe); ok && len(got.text) == 1 && got.text[0] == "probe" {
			render, via = cand, got.via
			break
		}
	}
	if render == nil {
		t.Skip("neither tmux, script(1) nor a plain pipe could run a shell here")
	}
	t.Logf("rendering through %s", via)

	for _, tc := range []struct {
		name   string
		env    string
		colour bool
	}{
		{"NO_COLOR=1", "unset COLUMNS; NO_COLOR=1; export NO_COLOR", false},
		{"colour", "unset NO_COLOR COLUMNS LC_ALL LC_CTYPE; LANG=C.UTF-8; export LANG", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := filepath.Join(dir, strings.ReplaceAll(tc.name, "=", "-")+".sh")
			body := fmt.Sprintf("%s\ncd '%s' || exit 1\n'%s' statusline < '%s'\n", tc.env, dir, r.bin, payloadFile)
			if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			got, ok := render(t, r.Env, script)
			if !ok {
				t.Fatalf("%s stopped working between runs", via)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("slRendering took %v", d)
			}
			if w := want[tc.colour]; strings.Join(got.text, "\n") != strings.Join(w, "\n") {
				t.Errorf("%s showed:\n%s\nwant:\n%s", via, strings.Join(got.text, "\n"), strings.Join(w, "\n"))
			}
			for i, row := range got.text {
				if n := utf8.RuneCountInString(row); n > 100 {
					t.Errorf("row %d is %d columns wide, over the 100-column terminal", i+1, n)
				}
			}
			hasEsc := strings.Contains(got.escaped, "\x1b[")
			switch {
			case tc.colour && !hasEsc:
				t.Errorf("no colour escape without NO_COLOR; %s gave %q", via, got.escaped)
			case !tc.colour && hasEsc:
				t.Errorf("colour escape with NO_COLOR=1; %s gave %q", via, got.escaped)
			}
		})
	}
}

// slHookVerb maps a recorded payload's file name to the verb that serves it
// and the hook_event_name it must carry ("" for the statusline).
func slHookVerb(name string) (args []string, event string, ok bool) {
	switch {
	case strings.HasPrefix(name, "precompact-"):
		return []string{"hook", "pre-compact"}, "PreCompact", true
	case strings.HasPrefix(name, "sessionstart-"):
		return []string{"hook", "session-start"}, "SessionStart", true
	case strings.HasPrefix(name, "posttooluse-"):
		return []string{"hook", "post-tool-use"}, "PostToolUse", true
	case name == "stop.json" || strings.HasPrefix(name, "stop-"):
		return []string{"hook", "stop"}, "Stop", true
	case name == "statusline.json" || strings.HasPrefix(name, "statusline-"):
		return []string{"statusline"}, "", true
	case name == "subagentstop.json":
		return []string{"hook", "subagent-stop"}, "SubagentStop", true
	case name == "sessionend.json":
		return []string{"hook", "session-end"}, "SessionEnd", true
	case name == "stopfailure.json":
		return []string{"hook", "stop-failure"}, "StopFailure", true
	case name == "worktreecreate.json":
		return []string{"hook", "worktree-create"}, "WorktreeCreate", true
	case name == "worktreeremove.json":
		return []string{"hook", "worktree-remove"}, "WorktreeRemove", true
	}
	return nil, "", false
}

// slRecorded lists testdata/hooks/*.json, sorted.
func slRecorded(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	sort.Strings(names)
	return names
}

// testStatuslineHookPayloads feeds every recorded payload to the verb that
// serves it, with the real binary against a repository with a live
// session, and checks the exit code, the shape and size of stdout, and the
// side effects.
func testStatuslineHookPayloads(t *testing.T, bin string) {
	names := slRecorded(t)
	for _, must := range []string{
		"precompact-auto.json", "precompact-manual.json", "precompact-subagent.json",
		"sessionstart-startup.json", "sessionstart-resume.json", "sessionstart-clear.json",
		"sessionstart-compact.json", "sessionstart-fork.json",
		"stop.json", "statusline.json", "statusline-null-pct.json", "posttooluse-bash.json",
	} {
		if !slContains(names, must) {
			t.Errorf("testdata/hooks/%s is missing", must)
		}
	}
	r := slNewRig(t, bin)
	const checkpoint = ".orc/main/files/checkpoint.md"
	const journal = ".orc/main/files/journal.jsonl"

	for _, name := range names {
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			args, event, ok := slHookVerb(name)
			if !ok {
				t.Fatalf("no verb serves %s; name recorded payloads precompact-*, sessionstart-*, posttooluse-*, stop*, statusline*", name)
			}
			in := slPayload(t, name, r.Dir)
			var fields map[string]any
			if err := json.Unmarshal([]byte(in), &fields); err != nil {
				t.Fatalf("%s is not a JSON object: %v", name, err)
			}
			if got, _ := fields["hook_event_name"].(string); event != "" && got != event {
				t.Fatalf("%s: hook_event_name %q, want %q", name, got, event)
			}
			if fields["cwd"] != r.Dir {
				t.Fatalf("%s: cwd %v does not name the recorded directory %s", name, fields["cwd"], slRecordedCwd)
			}
			beforeCkpt := r.readFile(t, checkpoint)
			beforeJournal := r.readFile(t, journal)

			// Run from the temp root, not the repository: the payload's
			// cwd must decide.
			code, stdout, stderr := (&clitest.Rig{T: t, Dir: filepath.Dir(r.Dir), Env: r.Env, Timeout: 15 * time.Second}).Exec(in, args...)
			if code != 0 {
				t.Fatalf("orc-state %s: exit %d, want 0 (stderr %q)", strings.Join(args, " "), code, stderr)
			}
			if stderr != "" {
				t.Errorf("stderr %q, want none with a live session", stderr)
			}
			afterCkpt := r.readFile(t, checkpoint)
			afterJournal := r.readFile(t, journal)

			switch args[len(args)-1] {
			case "pre-compact":
				if stdout != "" {
					t.Errorf("stdout %q, want none (PreCompact output is discarded)", stdout)
				}
				trigger, _ := fields["trigger"].(string)
				if _, sub := fields["agent_id"]; sub {
					if !bytes.Equal(beforeCkpt, afterCkpt) || !bytes.Equal(beforeJournal, afterJournal) {
						t.Errorf("a subagent's PreCompact changed the session")
					}
				} else if !strings.Contains(string(afterCkpt), "(trigger: "+trigger+")") {
					t.Errorf("checkpoint has no Auto-checkpoint with trigger %s:\n%s", trigger, afterCkpt)
				}
			case "stop":
				if stdout != "" {
					t.Errorf("stdout %q, want none (Stop output can keep Claude going)", stdout)
				}
				if !bytes.Equal(beforeJournal, afterJournal) {
					t.Errorf("Stop journaled a change although HEAD and the dirty set did not change")
				}
			case "subagent-stop":
				if stdout != "" || !bytes.Equal(beforeJournal, afterJournal) {
					t.Errorf("SubagentStop of an agent holding nothing printed %q or journaled a change", stdout)
				}
			case "session-end", "stop-failure":
				if stdout != "" {
					t.Errorf("stdout %q, want none", stdout)
				}
				if want := "(trigger: " + args[len(args)-1] + ")"; !strings.Contains(string(afterCkpt), want) {
					t.Errorf("checkpoint has no Auto-checkpoint %s:\n%s", want, afterCkpt)
				}
			case "worktree-create":
				want := filepath.Join(r.Dir, ".claude", "worktrees", fields["name"].(string))
				if stdout != want+"\n" {
					t.Errorf("stdout %q, want the worktree's path %q", stdout, want)
				}
				if _, err := os.Stat(filepath.Join(want, ".git")); err != nil {
					t.Errorf("no worktree at %s: %v", want, err)
				}
			case "worktree-remove":
				if stdout != "" {
					t.Errorf("stdout %q, want none", stdout)
				}
				if _, err := os.Stat(fields["worktree_path"].(string)); err == nil {
					t.Errorf("the worktree %s is still there", fields["worktree_path"])
				}
			case "post-tool-use":
				// The statusline saw this session at 42 %: nothing to say.
				if stdout != "" {
					t.Errorf("stdout %q, want none below red", stdout)
				}
				if !bytes.Equal(beforeCkpt, afterCkpt) || !bytes.Equal(beforeJournal, afterJournal) {
					t.Errorf("PostToolUse wrote to the session")
				}
			case "session-start":
				slCheckSessionStart(t, fields["source"], stdout)
				if !bytes.Equal(beforeCkpt, afterCkpt) || !bytes.Equal(beforeJournal, afterJournal) {
					t.Errorf("SessionStart wrote to the session")
				}
			case "statusline":
				lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
				if !strings.HasSuffix(stdout, "\n") || len(lines) < 1 || len(lines) > 2 {
					t.Fatalf("statusline printed %q, want 1-2 newline-terminated lines", stdout)
				}
				plain := slANSI.ReplaceAllString(stdout, "")
				if !strings.Contains(plain, "orc flow 1/3 init │ ⎇ main") {
					t.Errorf("statusline %q lacks the session row", plain)
				}
				pct := fields["context_window"].(map[string]any)["used_percentage"]
				if pct == nil && strings.Contains(plain, "ctx") {
					t.Errorf("used_percentage is null but the statusline shows %q", plain)
				}
				if n, ok := pct.(float64); ok && !regexp.MustCompile(fmt.Sprintf(`ctx \S+ %d%%`, int(n))).MatchString(plain) {
					t.Errorf("statusline %q does not show ctx %d%%", plain, int(n))
				}
				for _, l := range lines {
					if l == "" || utf8.RuneCountInString(slANSI.ReplaceAllString(l, "")) > 120 {
						t.Errorf("statusline row %q is empty or too wide", l)
					}
				}
				if !bytes.Equal(beforeCkpt, afterCkpt) || !bytes.Equal(beforeJournal, afterJournal) {
					t.Errorf("statusline wrote to the session")
				}
			}
		})
	}
}

// slCheckSessionStart checks a SessionStart answer against claude-code.md §3-4:
// one JSON object (or nothing), only documented fields, additionalContext
// within the cap, the packet for compact/resume and one line for
// startup/clear.
func slCheckSessionStart(t *testing.T, source any, stdout string) {
	t.Helper()
	if stdout == "" {
		t.Errorf("source %v: no answer although the branch has a live session", source)
		return
	}
	if strings.TrimLeft(stdout, " \t\r\n")[0] != '{' {
		t.Fatalf("stdout does not start with '{', so the host would take it as plain text: %q", stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout has more than one JSON value: %q", stdout)
	}
	for k := range top {
		switch k {
		case "continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput":
		default:
			t.Errorf("undocumented top-level field %q", k)
		}
	}
	if _, ok := top["continue"]; ok {
		t.Errorf("SessionStart must not set continue")
	}
	var hso map[string]json.RawMessage
	if err := json.Unmarshal(top["hookSpecificOutput"], &hso); err != nil {
		t.Fatalf("hookSpecificOutput: %v", err)
	}
	for k := range hso {
		switch k {
		case "hookEventName", "additionalContext", "sessionTitle", "initialUserMessage", "watchPaths", "reloadSkills":
		default:
			t.Errorf("undocumented hookSpecificOutput field %q", k)
		}
	}
	var eventName, ctx, title string
	json.Unmarshal(hso["hookEventName"], &eventName)
	json.Unmarshal(hso["additionalContext"], &ctx)
	json.Unmarshal(hso["sessionTitle"], &title)
	if eventName != "SessionStart" {
		t.Errorf("hookEventName %q, want SessionStart", eventName)
	}
	if n := len(utf16.Encode([]rune(ctx))); n == 0 || n > slMaxContext {
		t.Errorf("additionalContext is %d characters, want 1..%d", n, slMaxContext)
	}
	if title != "" && !strings.HasPrefix(title, "orc: flow main") {
		t.Errorf("sessionTitle %q does not name this branch's session", title)
	}
	switch source {
	case "compact", "resume":
		for _, want := range []string{"# orc-state resume packet", "## Resume digest", "- Done: phase 0 planned", "- Suite: unknown"} {
			if !strings.Contains(ctx, want) {
				t.Errorf("source %v: additionalContext lacks %q:\n%s", source, want, ctx)
			}
		}
	case "startup", "clear":
		if strings.ContainsAny(strings.TrimSuffix(ctx, "\n"), "\r\n") {
			t.Errorf("source %v: the banner is not one line: %q", source, ctx)
		}
		if !strings.Contains(ctx, "main") {
			t.Errorf("source %v: the banner does not name the session: %q", source, ctx)
		}
	}
}

func slContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// testStatuslinePayloadCopies checks that the payloads the hook_* and
// statusline_* scripts carry are byte-for-byte the recorded ones, so the
// scripts and testStatuslineHookPayloads exercise the same shapes, and that
// every recorded payload is used by some script.
func testStatuslinePayloadCopies(t *testing.T) {
	names := slRecorded(t)
	var scripts []string
	for _, pattern := range []string{"hook_*.txtar", "statusline_*.txtar"} {
		m, err := filepath.Glob(filepath.Join("testdata", "script", pattern))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no testdata/script/%s", pattern)
		}
		scripts = append(scripts, m...)
	}
	used := map[string]bool{}
	for _, script := range scripts {
		a, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !slContains(names, f.Name) {
				continue
			}
			want, err := os.ReadFile(filepath.Join("testdata", "hooks", f.Name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f.Data, want) {
				t.Errorf("%s: the copy of %s differs from testdata/hooks/%s", filepath.Base(script), f.Name, f.Name)
			}
			used[f.Name] = true
		}
	}
	for _, n := range names {
		if !used[n] {
			t.Errorf("testdata/hooks/%s is used by no hook_*.txtar or statusline_*.txtar script", n)
		}
	}
}
