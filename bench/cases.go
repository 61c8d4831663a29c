package main

import (
	"fmt"
	"strconv"
	"time"
)

// group is a set of cases measured together (round-robin) on one fixture.
type group struct {
	name    string
	cases   []benchCase
	restore [][]string // orc-state commands run, untimed, after the group
}

// benchCase is one timed command line. args and stdin get the run number
// (warm-up runs included), so state-changing cases can alternate values and
// every run really changes state.
type benchCase struct {
	key   string // names the case across groups, for relative budgets
	label string
	dir   string
	exe   string // the executable; orc-state unless set
	args  func(run int) []string
	stdin func(run int) string // nil: empty stdin
	rule  budgetRule
	skip  string // non-empty: not run; the note says why
	alone bool   // measured after the round-robin cases, not between them
	want  string // read-only cases: stdout must contain it (checked untimed, before the runs)
}

// budgetRule says how a case's budget is derived (contract §19).
type budgetRule struct {
	kind  budgetKind
	fixed time.Duration // kind fixedBudget
	over  time.Duration // kind overGit: the allowance above git status
	ref   string        // kind twiceRef: the case (same group) it may take twice the time of
}

type budgetKind int

const (
	noBudget    budgetKind = iota
	fixedBudget            // an absolute median
	twiceOne               // 2× the same case's 1-session median
	overGit                // the group's git status median + over
	baseline               // the reference the group's budgets derive from
	twiceRef               // 2× the median of the group's case rule.ref
)

const (
	groupOne      = "1 session"
	readBudget    = 5 * time.Millisecond
	writeBudget   = 10 * time.Millisecond
	gitAllowance  = 20 * time.Millisecond
	gitStatusKey  = "git status"
	statuslineKey = "statusline"
)

func groupMany(n int) string { return fmt.Sprintf("%s sessions", thousands(n)) }
func groupBig(n int) string  { return fmt.Sprintf("%s-file repo", thousands(n)) }

func fixed(d time.Duration) budgetRule { return budgetRule{kind: fixedBudget, fixed: d} }

func static(args ...string) func(int) []string { return func(int) []string { return args } }

// alternate picks a on even runs and b on odd ones.
func alternate(a, b string) func(int) string {
	return func(run int) string {
		if run%2 == 0 {
			return a
		}
		return b
	}
}

// digest is a valid five-bullet Resume digest; n makes it distinct.
func digest(n int) string {
	return fmt.Sprintf("- Done: bench step %d recorded\n"+
		"- Next: phase-%d-plan.md\n"+
		"- Open decisions: none\n"+
		"- Artifacts: bench-%d.json\n"+
		"- Suite: unknown\n", n, n, n)
}

// sessionGroup is the verbs of contract §19 on the session of branch main
// in repo. In the 1-session group the budgets are §19's absolute ones; in
// any other, 2× the 1-session median of the same case.
func sessionGroup(name, repo string, h *harness) group {
	read, write, check := fixed(readBudget), fixed(writeBudget), budgetRule{}
	if name != groupOne {
		read, write, check = budgetRule{kind: twiceOne}, budgetRule{kind: twiceOne}, budgetRule{kind: twiceOne}
	}
	phase := alternate("2", "3") // the session starts at phase 1
	status := alternate("paused", "in_progress")
	slice := alternate("red", "green") // s1 starts pending
	cases := []benchCase{
		{key: "line", label: "`line`", args: static("line"), rule: read, want: `"status":"in_progress"`},
		{key: "get", label: "`get`", args: static("get"), rule: read},
		{key: "sessions", label: "`sessions`", args: static("sessions"), rule: read},
		{key: "phase set", label: "`phase set` (2 ↔ 3)", rule: write,
			args: func(r int) []string { return []string{"phase", "set", phase(r)} }},
		{key: "digest write", label: "`digest write -` (2 digests, alternating)", rule: write,
			args:  static("digest", "write", "-"),
			stdin: func(r int) string { return digest(r % 2) }},
		// Alone: while the session is paused, line and statusline have no
		// live session to render, which would time a shorter path.
		{key: "status set", label: "`status set` (paused ↔ in_progress)", rule: write, alone: true,
			args: func(r int) []string { return []string{"status", "set", status(r)} }},
		{key: "link-pr", label: "`link-pr` (a new URL each run)", rule: write,
			args: func(r int) []string {
				n := strconv.Itoa(r + 1)
				return []string{"link-pr", "--repo", "bench", "--url", "https://example.com/bench/pull/" + n, "--number", n}
			}},
		{key: "slice set", label: "`slice set` (red ↔ green)", rule: write,
			args: func(r int) []string { return []string{"slice", "set", "s1", "--status", slice(r)} }},
		{key: "decision set", label: "`decision set` (a new key each run)", rule: write,
			args: func(r int) []string {
				return []string{"decision", "set", fmt.Sprintf("benchKey%d", r), fmt.Sprintf("value-%d", r), "--provenance", "flag"}
			}},
		{key: "verify", label: "`verify`", args: static("verify"), rule: check},
		{key: "cleanup plan", label: "`cleanup --dry-run --gone` (a plan over every session)", args: static("cleanup", "--dry-run", "--gone"), rule: check},
	}
	for i := range cases {
		cases[i].dir = repo
	}
	return group{name: name, cases: cases, restore: [][]string{{"status", "set", "in_progress"}}}
}

// bigGroup compares the auto-checkpoint and resume packet with the git
// status they run, on a large repository with a few dirty files.
func bigGroup(name, repo string, h *harness) group {
	over := budgetRule{kind: overGit, over: gitAllowance}
	cases := []benchCase{
		{key: gitStatusKey, label: "`git --no-optional-locks status --porcelain=v2 -z --untracked-files=all`",
			exe: "git", args: static("--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all"),
			rule: budgetRule{kind: baseline}},
		{key: "checkpoint --auto", label: "`checkpoint --auto`", args: static("checkpoint", "--auto"), rule: over},
		{key: "resume", label: "`resume`", args: static("resume"), rule: over},
		{key: "hook pre-compact", label: "`hook pre-compact` (PreCompact JSON on stdin)", args: static("hook", "pre-compact"),
			stdin: func(int) string {
				return fmt.Sprintf(`{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`, repo)
			}, rule: over},
	}
	if !h.supports(repo, "resume") {
		cases[2].skip = "skipped: this build has no `resume` (`orc-state resume --help` failed)"
	}
	for i := range cases {
		cases[i].dir = repo
	}
	return group{name: name, cases: cases}
}

// statuslineGroup times the statusline verb fed a Claude Code statusline
// payload for the 1-session repository, with its git cache warm (one
// Claude Code session, rendered every run) and cold (a new session every
// run: a detached refresher runs git status, waited for at most 30 ms),
// and hook post-tool-use after a tool call of the warm session (a reading
// below red: the usual, silent path). Both hot paths may take 2× `line`,
// measured in the same rounds.
func statuslineGroup(repo string, h *harness) group {
	nonce := time.Now().UnixNano() // cold sessions never meet an earlier bench's cache
	payload := func(session string) string {
		return fmt.Sprintf(`{"hook_event_name":"Status","session_id":%q,`+
			`"transcript_path":"/tmp/bench-transcript.jsonl","cwd":%q,`+
			`"model":{"id":"claude-opus-4-1","display_name":"Opus"},`+
			`"workspace":{"current_dir":%q,"project_dir":%q},"version":"1.0.80",`+
			`"output_style":{"name":"default"},`+
			`"cost":{"total_cost_usd":0.42,"total_duration_ms":61000,"total_api_duration_ms":23000,"total_lines_added":120,"total_lines_removed":14},`+
			`"context_window":{"used_percentage":37.5}}`, session, repo, repo, repo)
	}
	warm := fmt.Sprintf("bench-warm-%d", nonce)
	toolUse := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/bench-transcript.jsonl","cwd":%q,`+
		`"permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash",`+
		`"tool_input":{"command":"go test ./...","description":"Run the tests"},`+
		`"tool_response":{"stdout":"ok","stderr":"","interrupted":false,"isImage":false},"tool_use_id":"toolu_bench"}`, warm, repo)
	twiceLine := budgetRule{kind: twiceRef, ref: "line"}
	cases := []benchCase{
		{key: "line", label: "`line` (the reference)", args: static("line"), rule: budgetRule{kind: baseline}},
		{key: statuslineKey, label: "`statusline`, warm cache (Claude Code JSON on stdin)",
			args: static("statusline"), stdin: func(int) string { return payload(warm) }, rule: twiceLine, want: "flow "},
		{key: "statusline cold", label: "`statusline`, cold cache (a new Claude Code session each run)",
			args: static("statusline"), stdin: func(r int) string { return payload(fmt.Sprintf("bench-cold-%d-%d", nonce, r)) }},
		{key: "hook post-tool-use", label: "`hook post-tool-use` (PostToolUse JSON on stdin; below red, silent)",
			args: static("hook", "post-tool-use"), stdin: func(int) string { return toolUse }, rule: twiceLine},
	}
	for i := range cases {
		cases[i].dir = repo
	}
	if !h.supports(repo, "statusline") {
		for i := range cases[1:] {
			cases[i+1].skip = "skipped: this build has no `statusline` (`orc-state statusline --help` failed); `line` above is the statusline path"
		}
	}
	if !h.supports(repo, "hook", "post-tool-use") {
		cases[3].skip = "skipped: this build has no `hook post-tool-use`"
	}
	return group{name: "statusline", cases: cases}
}

// thousands renders n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
