package main

import (
	"fmt"
	"strconv"
	"time"
)

// group is a set of cases measured together (round-robin) on one fixture.
type group struct {
	name     string
	role     groupRole
	sessions int    // sessions in the fixture's registry (0: not a session fixture)
	registry int64  // bytes of its orc.json
	repo     string // the fixture whose orc.json that is ("": the first case's)
	cases    []benchCase
	restore  [][]string // orc-state commands run, untimed, after the group
}

// groupRole says which targets a group's rows are held to.
type groupRole int

const (
	roleOne   groupRole = iota // 1 session: ratios to the floor
	roleMid                    // 1,000 sessions: ≤ 1.3× the 1-session median
	roleLarge                  // 10,000 sessions: reads 2×, mutations 3×, peak RSS
	roleGit                    // the large work tree: ratios to the git floor
	roleHot                    // the statusline's hot paths: ratios to line
	roleBound                  // a bound worktree beside the main one: the 1-session targets
)

// class is what a case is, for its targets.
type class int

const (
	classFloor    class = iota // the floor program
	classRead                  // a read verb
	classWrite                 // a mutation
	classOther                 // no 1-session target (verify), scaled like a read
	classSweep                 // output grows with the sessions: ms per 1,000 sessions
	classGitRef                // a reference: git status beside the git floor; line for the hot paths
	classGitFloor              // the git floor: git status run by a tiny Go program, the git-bound verbs' reference
	classGit                   // a git-bound verb
	classRef                   // a hot path held to 2× another case of its group (ref)
)

// benchCase is one timed command line. args and stdin get the run number
// (warm-up runs included), so state-changing cases can alternate values and
// every run really changes state.
type benchCase struct {
	key   string // names the case across groups, for the ratios
	label string
	dir   string
	exe   string // the executable; orc-state unless set
	args  func(run int) []string
	stdin func(run int) string // nil: empty stdin
	class class
	read  bool   // a sweep that is also a read verb at 1 session (sessions)
	skip  string // non-empty: not run; the note says why
	alone bool   // measured after the round-robin cases, not between them
	few   bool   // a sweep on a large fixture: fewer runs (see config.fewRuns)
	want  string // read-only cases: stdout must contain it (checked untimed, before the runs)
	ref   string // classRef: the key of the case (same group) it may take twice the time of
}

// Targets (docs/performance.md), as ratios measured in the same run.
const (
	readOverFloor  = 1.8
	writeOverFloor = 3.0
	midOverOne     = 1.3
	largeReadOver  = 2.0
	largeWriteOver = 3.0
	gitOverFloor   = 1.15
	refTimes       = 2.0
	maxFsyncs      = 2        // per mutation, as the process counts them
	rssPerByte     = 4        // peak RSS ≤ rssPerByte × orc.json + rssSlack
	rssSlack       = 16 << 20 // bytes
	floorKey       = "floor"
	gitStatusKey   = "git status"
	gitFloorKey    = "git floor"
)

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

// statuslinePayload is a Claude Code statusline payload for repo.
func statuslinePayload(repo string) string {
	return fmt.Sprintf(`{"hook_event_name":"Status","session_id":"bench-0001",`+
		`"transcript_path":"/tmp/bench-transcript.jsonl","cwd":%q,`+
		`"model":{"id":"claude-opus-4-1","display_name":"Opus"},`+
		`"workspace":{"current_dir":%q,"project_dir":%q},"version":"1.0.80",`+
		`"output_style":{"name":"default"},`+
		`"cost":{"total_cost_usd":0.42,"total_duration_ms":61000,"total_api_duration_ms":23000,"total_lines_added":120,"total_lines_removed":14},`+
		`"context_window":{"used_percentage":37.5}}`, repo, repo, repo)
}

// sessionGroup is every verb of the targets on the session of branch main
// in repo, plus the floor program.
func sessionGroup(name string, role groupRole, repo string, n int, h *harness) group {
	phase := alternate("2", "3") // the session starts at phase 1
	status := alternate("paused", "in_progress")
	slice := alternate("red", "green") // s1 starts pending
	payload := statuslinePayload(repo)
	large := role != roleOne
	cases := []benchCase{
		{key: floorKey, label: "floor (read orc.json, write it to /dev/null)", exe: h.floor, args: static(), class: classFloor},
		{key: "line", label: "`line`", args: static("line"), class: classRead, want: `"status":"in_progress"`},
		{key: "statusline", label: "`statusline` (Claude Code JSON on stdin)", args: static("statusline"),
			stdin: func(int) string { return payload }, class: classRead, want: "flow "},
		{key: "get", label: "`get`", args: static("get"), class: classRead},
		{key: "current", label: "`current`", args: static("current"), class: classRead},
		{key: "decision get", label: "`decision get maxRetriesPerSlice`", args: static("decision", "get", "maxRetriesPerSlice"), class: classRead},
		{key: "slice list", label: "`slice list`", args: static("slice", "list"), class: classRead},
		{key: "sessions", label: "`sessions`", args: static("sessions"), class: classSweep, read: true},
		{key: "phase set", label: "`phase set` (2 ↔ 3)", class: classWrite,
			args: func(r int) []string { return []string{"phase", "set", phase(r)} }},
		{key: "digest write", label: "`digest write -` (2 digests, alternating)", class: classWrite,
			args:  static("digest", "write", "-"),
			stdin: func(r int) string { return digest(r % 2) }},
		// Alone: while the session is paused, line and statusline have no
		// live session to render, which would time a shorter path.
		{key: "status set", label: "`status set` (paused ↔ in_progress)", class: classWrite, alone: true,
			args: func(r int) []string { return []string{"status", "set", status(r)} }},
		{key: "link-pr", label: "`link-pr` (a new URL each run)", class: classWrite,
			args: func(r int) []string {
				n := strconv.Itoa(r + 1)
				return []string{"link-pr", "--repo", "bench", "--url", "https://example.com/bench/pull/" + n, "--number", n}
			}},
		{key: "slice set", label: "`slice set` (red ↔ green)", class: classWrite,
			args: func(r int) []string { return []string{"slice", "set", "s1", "--status", slice(r)} }},
		{key: "decision set", label: "`decision set` (a new key each run)", class: classWrite,
			args: func(r int) []string {
				return []string{"decision", "set", fmt.Sprintf("benchKey%d", r), fmt.Sprintf("value-%d", r), "--provenance", "flag"}
			}},
		{key: "verify", label: "`verify`", args: static("verify"), class: classOther},
		{key: "cleanup plan", label: "`cleanup --dry-run --gone` (a plan over every session)", args: static("cleanup", "--dry-run", "--gone"), class: classSweep, few: large},
		{key: "doctor", label: "`doctor`", args: static("doctor"), class: classSweep, few: large},
		{key: "sync status", label: "`sync status --no-fetch`", args: static("sync", "status", "--no-fetch"), class: classSweep, few: large},
	}
	if !h.supports(repo, "statusline") {
		cases[2].skip = "skipped: this build has no `statusline`"
	}
	for i := range cases {
		cases[i].dir = repo
	}
	return group{name: name, role: role, sessions: n, registry: fileSize(repo, ".orc/orc.json"),
		cases: cases, restore: [][]string{{"status", "set", "in_progress"}}}
}

// bigGroup compares the git-bound verbs with the git floor (a static Go
// program that runs the git status they run and reads it), on a large
// repository with a few dirty files; git status itself is shown beside
// it, as what the floor costs over git.
func bigGroup(name, repo string, h *harness) group {
	cases := []benchCase{
		{key: gitStatusKey, label: "`git --no-optional-locks status --porcelain=v2 -z --untracked-files=all`",
			exe: "git", args: static("--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all"),
			class: classGitRef},
		{key: gitFloorKey, label: "git floor (a static Go program runs the git status of the verbs below and reads it)",
			exe: h.gitFloor, args: static(), class: classGitFloor},
		{key: "checkpoint --auto", label: "`checkpoint --auto`", args: static("checkpoint", "--auto"), class: classGit},
		{key: "resume", label: "`resume`", args: static("resume"), class: classGit},
		{key: "hook pre-compact", label: "`hook pre-compact` (PreCompact JSON on stdin)", args: static("hook", "pre-compact"),
			stdin: func(int) string {
				return fmt.Sprintf(`{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`, repo)
			}, class: classGit},
	}
	for i := range cases {
		cases[i].dir = repo
	}
	return group{name: name, role: roleGit, cases: cases}
}

// statuslineGroup times the statusline on the 1-session repository with
// its git cache warm (one Claude Code session, rendered every run) and cold
// (a new session every run: a detached refresher runs git status, waited
// for at most 30 ms), and hook post-tool-use after a tool call of the warm
// session (a reading below red: the usual, silent path). Both hot paths
// may take 2× `line`, measured in the same rounds.
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
	cases := []benchCase{
		{key: "line", label: "`line` (the reference)", args: static("line"), class: classGitRef},
		{key: "statusline", label: "`statusline`, warm cache (Claude Code JSON on stdin)", class: classRef, ref: "line",
			args: static("statusline"), stdin: func(int) string { return payload(warm) }, want: "flow "},
		{key: "statusline cold", label: "`statusline`, cold cache (a new Claude Code session each run)", class: classOther,
			args: static("statusline"), stdin: func(r int) string { return payload(fmt.Sprintf("bench-cold-%d-%d", nonce, r)) }},
		{key: "hook post-tool-use", label: "`hook post-tool-use` (PostToolUse JSON on stdin; below red, silent)", class: classRef, ref: "line",
			args: static("hook", "post-tool-use"), stdin: func(int) string { return toolUse }},
	}
	for i := range cases {
		cases[i].dir = repo
	}
	if !h.supports(repo, "hook", "post-tool-use") {
		cases[3].skip = "skipped: this build has no `hook post-tool-use`"
	}
	return group{name: "statusline (1 session)", role: roleHot, cases: cases}
}

// boundGroup times line, statusline and slice claim in the main worktree
// of a 1-session repository and in a linked worktree bound to its session
// (docs/protocol.md §3), in the same rounds, each held to the 1-session
// targets against the floor of those rounds: finding the binding (one
// small file read by hand, only in a linked worktree) must cost nothing
// measurable. The claims alternate with releases, so every run changes
// state: the main worktree's agent takes s1, the bound one's s2 (the
// fixture's two slices are independent), then both give them up.
func boundGroup(repo, wt string, h *harness) group {
	claim := func(id string, agent ...string) func(int) []string {
		return func(r int) []string {
			if r%2 == 0 {
				return append([]string{"slice", "claim", "--lease", "30m"}, agent...)
			}
			return append([]string{"slice", "release", id}, agent...)
		}
	}
	cases := []benchCase{
		{key: floorKey, label: "floor (read orc.json, write it to /dev/null)", exe: h.floor, args: static(), class: classFloor, dir: repo},
		{key: "line", label: "`line`, main worktree", args: static("line"), class: classRead, dir: repo, want: `[1]"}`},
		{key: "line bound", label: "`line`, bound worktree", args: static("line"), class: classRead, dir: wt, want: `[1]"}`},
		{key: "statusline", label: "`statusline`, main worktree", args: static("statusline"), class: classRead, dir: repo,
			stdin: func(int) string { return statuslinePayload(repo) }, want: "flow "},
		{key: "statusline bound", label: "`statusline`, bound worktree", args: static("statusline"), class: classRead, dir: wt,
			stdin: func(int) string { return statuslinePayload(wt) }, want: "flow "},
		{key: "slice claim", label: "`slice claim` ↔ `slice release`, main worktree (`--agent`)", class: classWrite, dir: repo,
			args: claim("s1", "--agent", "bench-main")},
		{key: "slice claim bound", label: "`slice claim` ↔ `slice release`, bound worktree (no flag)", class: classWrite, dir: wt,
			args: claim("s2")},
	}
	return group{name: "bound worktree (1 session)", role: roleBound, sessions: 1, registry: fileSize(repo, ".orc/orc.json"), cases: cases}
}

// thousands renders n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func groupName(n int) string {
	if n == 1 {
		return "1 session"
	}
	return thousands(n) + " sessions"
}
