package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
)

// TestWorktreeSelection holds docs/protocol.md §3's selection to its
// rules over the places a verb runs in (the main worktree, a bound one, an
// unbound one, a bound one whose branch has a session of its own) and the
// ways a session is named (--session, a positional key, $ORC_SESSION, the
// binding, the branch), in process: which session is selected, the exit
// code and message when none or two are, the agent a claim is made as,
// and the hooks and line in a bound worktree.
func TestWorktreeSelection(t *testing.T) {
	r := clitest.NewRig(t, "git")
	r.Git("checkout", "-q", "-b", "feat/par")
	r.MustOrc("", "init", "--command", "flow", "--total-phases", "3")
	r.MustOrc(`{"slices": [{"id": "1", "title": "a"}, {"id": "2", "title": "b"}, {"id": "3", "title": "c"}, {"id": "4", "title": "d"}]}`, "slice", "init", "-")
	r.Git("branch", "other")
	r.Git("branch", "done")
	r.MustOrc("", "init", "--branch", "other", "--command", "plan", "--total-phases", "2")
	r.MustOrc("", "init", "--branch", "done", "--command", "plan", "--total-phases", "2")
	r.MustOrc("", "status", "set", "completed", "--session", "done")

	up := filepath.Dir(r.Dir)
	wB, wU, wC := filepath.Join(up, "wB"), filepath.Join(up, "wU"), filepath.Join(up, "wC")
	r.MustOrc("", "worktree", "add", wB, "--detach", "--agent", "bound-agent")
	r.Git("worktree", "add", "-q", wU, "-b", "feat/unbound")
	r.Git("worktree", "add", "-q", wC, "done")

	type row struct {
		name      string
		dir       string
		env       []string // added to the rig's environment
		stdin     string
		args      []string
		code      int
		stdout    string // a substring of stdout ("" : not checked)
		stderr    string // a substring of stderr ("" : none expected on exit 0)
		notStdout string
		silent    bool // stdout must be empty
	}
	run := func(t *testing.T, tt row) {
		t.Helper()
		w := &clitest.Rig{T: t, Dir: tt.dir, Env: environ.List(append(append([]string{}, r.Env...), tt.env...))}
		code, stdout, stderr := w.Orc(tt.stdin, tt.args...)
		if code != tt.code {
			t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
		}
		if !strings.Contains(stdout, tt.stdout) || tt.notStdout != "" && strings.Contains(stdout, tt.notStdout) || tt.silent && stdout != "" {
			t.Errorf("stdout %q: want %q, not %q", stdout, tt.stdout, tt.notStdout)
		}
		if tt.stderr == "" && code == 0 && stderr != "" || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("stderr %q, want %q", stderr, tt.stderr)
		}
	}
	id := []string{"get", "--field", "sessionId"}
	joinHint := "hint: this worktree is bound to no session; the live sessions are feat-par, other: orc-state worktree join --session S binds this worktree to one (run here)"
	for _, tt := range []row{
		// Who is selected.
		{name: "main worktree: its branch", dir: r.Dir, args: id, stdout: "feat-par\n"},
		{name: "bound: the binding", dir: wB, args: id, stdout: "feat-par\n"},
		{name: "bound: --session wins", dir: wB, args: append(id, "--session", "other"), stdout: "other\n"},
		{name: "bound: a positional key wins", dir: wB, args: []string{"get", "other", "--field", "sessionId"}, stdout: "other\n"},
		{name: "bound: $ORC_SESSION wins", dir: wB, env: []string{"ORC_SESSION=other"}, args: id, stdout: "other\n"},
		{name: "unbound: $ORC_SESSION selects", dir: wU, env: []string{"ORC_SESSION=feat-par"}, args: id, stdout: "feat-par\n"},
		{name: "$ORC_SESSION over a completed own session", dir: wC, env: []string{"ORC_SESSION=other"}, args: id, stdout: "other\n"},
		{name: "$ORC_SESSION against a live own session", dir: r.Dir, env: []string{"ORC_SESSION=other"}, args: id, code: 2,
			stderr: `$ORC_SESSION selects session other, but branch "feat/par" checked out here has its own live session feat-par`},
		{name: "$ORC_SESSION that is no key", dir: wU, env: []string{"ORC_SESSION=../x"}, args: id, code: 2, stderr: "$ORC_SESSION: session key"},
		{name: "--session beats a conflicting $ORC_SESSION", dir: r.Dir, env: []string{"ORC_SESSION=other"}, args: append(id, "--session", "other"), stdout: "other\n"},
		// No session: the hint says join, for every session verb.
		{name: "unbound: get", dir: wU, args: id, code: 1, stderr: joinHint},
		{name: "unbound: progress append", dir: wU, stdin: "x\n", args: []string{"progress", "append", "-"}, code: 1, stderr: joinHint},
		{name: "unbound: artifact check", dir: wU, args: []string{"artifact", "check", "r.json"}, code: 1, stderr: joinHint},
		{name: "unbound: init is still possible there", dir: wU, args: []string{"init", "--help"}, stdout: "Register the branch's session"},
		// line.
		{name: "line: bound, as its own", dir: wB, args: []string{"line"}, stdout: `"gitBranch":"feat/par"`, notStdout: `"current":false`},
		{name: "line: $ORC_SESSION", dir: wU, env: []string{"ORC_SESSION=other"}, args: []string{"line"}, stdout: `"gitBranch":"other"`, notStdout: `"current":false`},
		{name: "line: $ORC_SESSION against a live own session", dir: r.Dir, env: []string{"ORC_SESSION=other"}, args: []string{"line"}, silent: true},
		// The agent of a claim: --agent > the binding's > $ORC_ACTOR > the path.
		{name: "claim: the binding's agent before $ORC_ACTOR", dir: wB, env: []string{"ORC_ACTOR=actor-x"}, args: []string{"slice", "claim", "--json"}, stdout: `"claimedBy": "bound-agent"`},
		{name: "claim: --agent first", dir: wB, args: []string{"slice", "claim", "--json", "--agent", "flag-agent"}, stdout: `"claimedBy": "flag-agent"`},
		{name: "claim: $ORC_ACTOR with no bound agent", dir: wU, env: []string{"ORC_ACTOR=actor-y"}, args: []string{"slice", "claim", "--json", "--session", "feat-par"}, stdout: `"claimedBy": "actor-y"`},
		{name: "claim: the worktree's path last", dir: wU, args: []string{"slice", "claim", "--json", "--session", "feat-par"}, stdout: `"claimedBy": "` + wU + `"`},
		// Refusals of the worktree verbs.
		{name: "join: a branch with its own session, even completed", dir: wC, args: []string{"worktree", "join", "--session", "feat-par"}, code: 2,
			stderr: `branch "done" checked out in this worktree has its own session done; bound to feat-par it would select two sessions`},
		{name: "join: bound to another session already", dir: wB, args: []string{"worktree", "join", "--session", "other"}, code: 2,
			stderr: "this worktree is already bound to session feat-par\nhint: orc-state worktree leave, then orc-state worktree join --session=other"},
		{name: "join: the same session again changes nothing", dir: wB, args: []string{"worktree", "join", "--session", "feat-par"}, stdout: "\tfeat-par\tbound-agent\t"},
		{name: "add: no such session, before git", dir: r.Dir, args: []string{"worktree", "add", filepath.Join(up, "wX"), "--session", "nope"}, code: 1, stderr: `no session "nope"`},
		{name: "add: a credential as the agent", dir: r.Dir, args: []string{"worktree", "add", filepath.Join(up, "wX"), "--agent", "ghp_0123456789abcdefghijABCDEFGHIJ012345"}, code: 2, stderr: "looks like a credential"},
		{name: "join: an agent on two lines", dir: wU, args: []string{"worktree", "join", "--session", "feat-par", "--agent", "a\nb"}, code: 2, stderr: "line break"},
	} {
		t.Run(tt.name, func(t *testing.T) { run(t, tt) })
	}
	if _, err := os.Stat(filepath.Join(up, "wX")); err == nil {
		t.Error("a refused worktree add made the worktree")
	}

	// A bound worktree whose branch has a session of its own, completed or
	// not: exit 2 naming both; line shows nothing; verify names it.
	c := &clitest.Rig{T: t, Dir: wC, Env: r.Env}
	c.Git("switch", "-q", "-c", "feat/c")
	c.MustOrc("", "worktree", "join", "--session", "feat-par")
	c.Git("switch", "-q", "done")
	for _, tt := range []row{
		{name: "bound on a branch with its own session", dir: wC, args: id, code: 2,
			stderr: `this worktree is bound to session feat-par, but its branch "done" has its own session done`},
		{name: "line there", dir: wC, args: []string{"line"}, silent: true},
		{name: "verify names it", dir: r.Dir, args: []string{"verify"}, code: 1, stdout: "worktree.conflict: the worktree " + wC + " is bound to session feat-par, but its branch done has its own session done"},
	} {
		t.Run(tt.name, func(t *testing.T) { run(t, tt) })
	}
	c.Git("switch", "-q", "feat/c")

	// The hooks act on the bound session: PreCompact writes its checkpoint.
	payload, _ := json.Marshal(map[string]string{"session_id": "s", "cwd": wB, "hook_event_name": "PreCompact", "trigger": "auto"})
	r.MustOrc(string(payload), "hook", "pre-compact")
	if data, err := os.ReadFile(filepath.Join(r.Dir, ".orc", "feat-par", "files", "checkpoint.md")); err != nil || !strings.Contains(string(data), "## Auto-checkpoint") {
		t.Errorf("hook pre-compact in the bound worktree did not write feat-par's Auto-checkpoint: %v\n%s", err, data)
	}

	// A binding to a session that is gone (a hand edit): exit 3 naming it;
	// doctor names it with worktree leave.
	file := filepath.Join(r.Dir, ".orc", "worktrees.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), `"session": "feat-par"`, `"session": "ghost"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []row{
		{name: "bound to a session that is gone", dir: wB, args: id, code: 3, stderr: `this worktree is bound to session "ghost", which does not exist`},
		{name: "doctor names it", dir: r.Dir, args: []string{"doctor"}, code: 1, stdout: "worktree.no-session: the worktree " + wB + " is bound to session ghost, which does not exist\n  next: orc-state worktree leave " + wB},
		{name: "leave clears it", dir: r.Dir, args: []string{"worktree", "leave", wB}, stdout: wB + "\tghost\n"},
		{name: "then unbound", dir: wB, args: id, code: 1, stderr: "no branch given and HEAD is detached"},
	} {
		t.Run(tt.name, func(t *testing.T) { run(t, tt) })
	}

	// cleanup removes the bindings of the sessions it removes, never the
	// worktrees.
	u := &clitest.Rig{T: t, Dir: wU, Env: r.Env}
	u.MustOrc("", "worktree", "join", "--session", "other")
	r.MustOrc("", "status", "set", "completed", "--session", "other")
	r.MustOrc("", "cleanup", "--all-completed")
	if data, err := os.ReadFile(file); err != nil || strings.Contains(string(data), `"session": "other"`) || !strings.Contains(string(data), `"session": "feat-par"`) {
		t.Errorf("after cleanup, worktrees.json is: %v\n%s", err, data)
	}
	if _, err := os.Stat(filepath.Join(wU, ".git")); err != nil {
		t.Errorf("cleanup touched the worktree: %v", err)
	}
}
