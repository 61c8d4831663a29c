package proctest

// The reliability evidence of docs/protocol.md §19 (and the integrity rules of §4
// it stands on), measured on real orc-state processes:
//
//   - TestCrashKill: writers SIGKILLed at random instants, mixing every
//     mutating verb; afterwards every file still parses, the journal chain is
//     intact up to its last complete line, doctor names nothing worse than
//     a half-finished transaction, and repair --temp, one repair of the
//     session and ordinary verbs bring the state back to clean.
//   - TestSoakWriters: 50 concurrent writers for a bounded time; every
//     acknowledged change is there exactly once, and no file is invalid.
//   - TestAdversarialCorpus: the hostile inputs kept as files under
//     cmd/orc-state/testdata/adversarial (the argv- and filesystem-shaped
//     cases are the names_*, input_* and statedir_* scenarios in
//     cmd/orc-state/testdata/script).
//
// docs/reliability.md records what these tests measured and why each
// allowed finding can appear. Everything here is prefixed rel/crash/soak to
// stay clear of the other tests of package main.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/statetest"
)

// relProcessTimeout bounds one orc-state process that is not meant to be
// killed; past it the test kills it (by pid) and fails.
const relProcessTimeout = 120 * time.Second

// relRig is a rig (clitest.Rig, template main: one commit and an
// orc-state session on main with nine phases) driven by real orc-state
// processes.
type relRig struct {
	*clitest.Rig
	t     *testing.T
	orc   string // the state dir
	files string // the session's files/ folder
	head  string // HEAD's full sha
}

// relRun is how one process ended.
type relRun struct {
	args           []string
	code           int  // exit code; -1 when killed
	killed         bool // ended by our SIGKILL
	stdout, stderr string
	took           time.Duration
}

// newRelRig copies the rig and returns it. lockTimeout is
// ORC_LOCK_TIMEOUT.
func newRelRig(t *testing.T, lockTimeout string) *relRig {
	t.Helper()
	rig := clitest.NewRig(t, "main")
	rig.Env = rig.Env.With("ORC_LOCK_TIMEOUT="+lockTimeout, "ORC_ACTOR=reliability")
	r := &relRig{Rig: rig, t: t}
	r.head = strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.orc = filepath.Join(r.Dir, ".orc")
	r.files = filepath.Join(r.orc, "main", "files")
	return r
}

// launch starts one orc-state process. killAfter < 0 lets it finish;
// otherwise it is sent SIGKILL that long after it started.
func (r *relRig) launch(stdin string, killAfter time.Duration, args ...string) relRun {
	cmd := r.Command(context.Background(), stdin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	if err := cmd.Start(); err != nil {
		r.t.Errorf("start orc-state %s: %v", strings.Join(args, " "), err)
		return relRun{args: args, code: -1}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	if killAfter >= 0 {
		time.Sleep(killAfter)
		// A process that already exited is a zombie until Wait reaps it,
		// so this never reaches another process.
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
	} else {
		select {
		case err = <-done:
		case <-time.After(relProcessTimeout):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			r.t.Errorf("orc-state %s did not finish in %v", strings.Join(args, " "), relProcessTimeout)
			return relRun{args: args, code: -1, stdout: stdout.String(), stderr: stderr.String()}
		}
	}
	res := relRun{args: args, stdout: stdout.String(), stderr: stderr.String(), took: time.Since(began)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.code, res.killed = -1, ws.Signal() == syscall.SIGKILL && killAfter >= 0
			if !res.killed {
				r.t.Errorf("orc-state %s died of %v", strings.Join(args, " "), ws.Signal())
			}
		} else {
			res.code = exit.ExitCode()
		}
	default:
		res.code = -1
		r.t.Errorf("orc-state %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// run runs one process to completion.
func (r *relRig) run(stdin string, args ...string) relRun { return r.launch(stdin, -1, args...) }

// here runs orc-state inside the test process, in the rig's place and
// environment: for checks of what a verb does with its input, where the
// process boundary is not what is tested.
func (r *relRig) here(stdin string, args ...string) relRun {
	start := time.Now()
	code, stdout, stderr := r.Orc(stdin, args...)
	return relRun{args: args, code: code, stdout: stdout, stderr: stderr, took: time.Since(start)}
}

// must runs one process and fails the test unless it exits 0; it returns
// stdout.
func (r *relRig) must(stdin string, args ...string) string {
	r.t.Helper()
	res := r.run(stdin, args...)
	if res.code != 0 {
		r.t.Fatalf("orc-state %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res.stdout
}

// relFinding is one finding of doctor --json or verify --json.
type relFinding struct {
	Session string `json:"session"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// findings runs `doctor --json` (verb "doctor") or `verify --json` and
// returns what it found. Exit 0 must mean no finding, exit 1 some.
func (r *relRig) findings(verb string) []relFinding {
	r.t.Helper()
	res := r.run("", verb, "--json")
	var out struct {
		OK       bool         `json:"ok"`
		Findings []relFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		r.t.Errorf("%s --json: exit %d, stdout is not JSON (%v)\nstdout: %s\nstderr: %s", verb, res.code, err, res.stdout, res.stderr)
		return []relFinding{{Code: verb + ".failed", Message: res.stderr}}
	}
	if (res.code == 0) != (len(out.Findings) == 0) || res.code > 1 || out.OK != (len(out.Findings) == 0) {
		r.t.Errorf("%s --json: exit %d, ok %v with %d findings\nstderr: %s", verb, res.code, out.OK, len(out.Findings), res.stderr)
	}
	return out.Findings
}

// relSession is the part of a registry entry the tests read.
type relSession struct {
	SessionID   string          `json:"sessionId"`
	Phase       json.RawMessage `json:"phase"`
	TotalPhases int             `json:"totalPhases"`
	Status      string          `json:"status"`
	LinkedPRs   []struct {
		Repo   string `json:"repo"`
		URL    string `json:"url"`
		Number *int   `json:"number"`
	} `json:"linkedPRs"`
}

// registry reads orc.json directly, as a reader (no lock): an atomic
// writer never lets a reader see a partial file, so a parse failure here is
// a torn file.
func (r *relRig) registry() (relSession, error) {
	data, err := os.ReadFile(filepath.Join(r.orc, "orc.json"))
	if err != nil {
		return relSession{}, err
	}
	var reg struct {
		Sessions []relSession `json:"sessions"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		return relSession{}, fmt.Errorf("orc.json does not parse: %v", err)
	}
	if len(reg.Sessions) != 1 {
		return relSession{}, fmt.Errorf("orc.json has %d sessions, want 1", len(reg.Sessions))
	}
	return reg.Sessions[0], nil
}

// sliceStatuses reads slices.json directly (a reader, no lock).
func (r *relRig) sliceStatuses() (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(r.files, "slices.json"))
	if err != nil {
		return nil, err
	}
	var l struct {
		Slices []struct {
			ID     json.RawMessage `json:"id"`
			Status string          `json:"status"`
		} `json:"slices"`
	}
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("slices.json does not parse: %v", err)
	}
	out := map[string]string{}
	for _, s := range l.Slices {
		id := strings.Trim(string(s.ID), `"`)
		if s.Status == "" {
			s.Status = "pending"
		}
		out[id] = s.Status
	}
	return out, nil
}

// parseChecks runs the strict readers of every file: orc.json (sessions,
// get), slices.json (slice list), decisions.json (decision get). Each
// must exit 0 and print what it should. It returns a list of problems.
func (r *relRig) parseChecks() []string {
	var bad []string
	if res := r.run("", "sessions"); res.code != 0 || !strings.HasPrefix(res.stdout, "main\t") {
		bad = append(bad, fmt.Sprintf("sessions: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr))
	}
	if res := r.run("", "get"); res.code != 0 || !json.Valid([]byte(res.stdout)) {
		bad = append(bad, fmt.Sprintf("get: exit %d, stderr %q", res.code, res.stderr))
	}
	if res := r.run("", "slice", "list", "--json"); res.code != 0 || !json.Valid([]byte(res.stdout)) {
		bad = append(bad, fmt.Sprintf("slice list --json: exit %d, stderr %q", res.code, res.stderr))
	}
	if res := r.run("", "decision", "get"); res.code != 0 || !json.Valid([]byte(res.stdout)) {
		bad = append(bad, fmt.Sprintf("decision get: exit %d, stderr %q", res.code, res.stderr))
	}
	// The other JSON files (artifacts, removed.jsonl) have no strict
	// reader verb; they must at least be whole JSON.
	_ = filepath.WalkDir(r.orc, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			bad = append(bad, err.Error())
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".json") && !json.Valid(data):
			bad = append(bad, path+" is not whole JSON")
		case d.Name() == "removed.jsonl":
			for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if !json.Valid([]byte(line)) {
					bad = append(bad, fmt.Sprintf("%s line %d is not JSON", path, i+1))
				}
			}
		}
		return nil
	})
	return bad
}

// tempFiles lists the atomic-write temp files under the state dir.
func (r *relRig) tempFiles() []string {
	var out []string
	_ = filepath.WalkDir(r.orc, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), ".") && strings.Contains(d.Name(), ".tmp-") {
			rel, _ := filepath.Rel(r.orc, path)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// journalLines counts the lines of journal.jsonl (a last line without a
// newline counts).
func (r *relRig) journalLines() int {
	data, err := os.ReadFile(filepath.Join(r.files, "journal.jsonl"))
	if err != nil {
		r.t.Errorf("journal: %v", err)
		return 0
	}
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// relDigest is a valid five-bullet digest, distinct for each n.
func relDigest(tag string, n int) string {
	return fmt.Sprintf("- Done: %s step %d\n- Next: plan-%d.md\n- Open decisions: none\n- Artifacts: notes-%d.md\n- Suite: unknown\n", tag, n, n, n)
}

// relPlan is a ledger of the given slice ids, each depending on nothing,
// with a title and a field the tool does not own (kept byte-for-byte).
func relPlan(ids []string) string {
	var b strings.Builder
	b.WriteString("{\n  \"schema\": 1,\n  \"slices\": [")
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\n      \"id\": %q,\n      \"title\": \"slice %s\",\n      \"custom\": {\"owner\": %q}\n    }", id, id, id)
	}
	b.WriteString("\n  ]\n}\n")
	return b.String()
}

// relNextSlice returns the flags of a legal move of a slice now in
// status from (docs/protocol.md §7), cycling through every status: pending → red
// → green → committed → (forced) pending, with detours through
// escalated and skipped.
func relNextSlice(from string, n int, head string) []string {
	switch from {
	case "pending":
		switch n % 5 {
		case 0:
			return []string{"--status", "escalated", "--note", "stuck " + strconv.Itoa(n)}
		case 1:
			return []string{"--status", "committed", "--commit", head}
		}
		return []string{"--status", "red"}
	case "red":
		if n%7 == 0 {
			return []string{"--status", "skipped", "--note", "dropped " + strconv.Itoa(n)}
		}
		return []string{"--status", "green", "--actual-loc", strconv.Itoa(n % 500)}
	case "green":
		if n%3 == 0 {
			return []string{"--status", "red"} // a regression
		}
		return []string{"--status", "committed", "--commit", head}
	case "escalated":
		if n%2 == 0 {
			return []string{"--status", "red"}
		}
		return []string{"--status", "pending"}
	default: // committed, skipped: terminal, leaving needs --force
		return []string{"--status", "pending", "--force"}
	}
}

// crashOp is one mutation of the crash mix.
type crashOp struct {
	kind  string
	args  []string
	stdin string
	ok    []int // exit codes a process that was not killed may end with
}

// crashKinds is the mix, every mutating verb of the brief; a kind listed
// twice is drawn twice as often.
var crashKinds = []string{
	"phase set", "phase set", "status set", "link-pr", "link-pr", "jira bind", "jira unbind",
	"digest write", "digest write", "checkpoint --auto", "slice set", "slice set", "slice set",
	"decision set", "decision set", "decision set --supersede", "progress append",
	"artifact put", "gate record", "gate record", "init",
}

// crashNext builds the n-th mutation of worker w. It reads the state it
// needs (phase, slice statuses) directly from the files; a file that does
// not parse is a torn write and fails the test.
func crashNext(r *relRig, rng *rand.Rand, w, n int) crashOp {
	kind := crashKinds[rng.IntN(len(crashKinds))]
	tag := fmt.Sprintf("w%d-%d", w, n)
	zero := []int{0}
	switch kind {
	case "phase set":
		p := strconv.Itoa(1 + rng.IntN(9))
		if rng.IntN(10) == 0 {
			p = "done"
		}
		return crashOp{kind, []string{"phase", "set", p, "--label", "label " + strconv.Itoa(n%7)}, "", zero}
	case "status set":
		st := "in_progress"
		if rng.IntN(3) == 0 {
			st = "paused"
		}
		return crashOp{kind, []string{"status", "set", st}, "", zero}
	case "link-pr":
		u := fmt.Sprintf("https://example.com/o/r/pull/%d", rng.IntN(40))
		return crashOp{kind, []string{"link-pr", "--repo", "o/r", "--url", u, "--number", strconv.Itoa(n)}, "", zero}
	case "jira bind":
		return crashOp{kind, []string{"jira", "bind", fmt.Sprintf("ORC-%d", n)}, "", zero}
	case "jira unbind":
		return crashOp{kind, []string{"jira", "unbind"}, "", zero}
	case "digest write":
		return crashOp{kind, []string{"digest", "write", "-"}, relDigest(tag, n), zero}
	case "checkpoint --auto":
		return crashOp{kind, []string{"checkpoint", "--auto", "--trigger", "crash"}, "", zero}
	case "slice set":
		st, err := r.sliceStatuses()
		if err != nil {
			r.t.Errorf("before slice set: %v", err)
			return crashOp{kind, []string{"slice", "list"}, "", zero}
		}
		id := strconv.Itoa(1 + rng.IntN(10))
		// Exit 2: the other worker moved the slice between our read and
		// our write, so the edge we chose became illegal.
		return crashOp{kind, append([]string{"slice", "set", id}, relNextSlice(st[id], rng.IntN(1000), r.head)...), "", []int{0, 2}}
	case "decision set":
		return crashOp{kind, []string{"decision", "set", "k_" + strings.ReplaceAll(tag, "-", "_"), "v" + strconv.Itoa(n), "--provenance", "inferred"}, "", zero}
	case "decision set --supersede":
		return crashOp{kind, []string{"decision", "set", "policy", "value " + tag, "--provenance", "policy", "--supersede"}, "", zero}
	case "progress append":
		return crashOp{kind, []string{"progress", "append", "-", "--title", "step " + tag}, "crash marker " + tag + "\n", zero}
	case "artifact put":
		return crashOp{kind, []string{"artifact", "put", fmt.Sprintf("gate-%d.json", rng.IntN(5)), "-"}, fmt.Sprintf(`{"writer":%d,"n":%d,"tag":%q}`, w, n, tag), zero}
	case "gate record":
		s, err := r.registry()
		if err != nil {
			r.t.Errorf("before gate record: %v", err)
			return crashOp{kind, []string{"get"}, "", zero}
		}
		phase, err := strconv.Atoi(string(s.Phase))
		if err != nil { // done: start over, so that gates have a phase
			return crashOp{"phase set", []string{"phase", "set", "1", "--label", "again"}, "", zero}
		}
		verdict := "approved"
		if rng.IntN(3) == 0 {
			verdict = "changes_requested"
		}
		// Exit 2: the other worker changed the phase since we read it.
		return crashOp{kind, []string{"gate", "record", strconv.Itoa(phase), "--verdict", verdict, "--reviewer", "rev" + strconv.Itoa(n%3)}, "", []int{0, 2}}
	default: // init re-run: updates only what is passed
		return crashOp{"init", []string{"init", "--command", "flow", "--total-phases", "9", "--description", "re-run " + tag}, "", zero}
	}
}

// tempsPerTransaction is the most temp files one of the crash's
// transactions prepares before its record: a session's checkpoint.md,
// orc.json, its proof and the journal's anchor (phase set). A process
// killed while preparing leaves at most these; one that was not killed
// leaves none (checked at the end).
const tempsPerTransaction = 4

// crashAllowed are the findings a killed writer may leave (see
// docs/reliability.md): temp files (killed before its commit point), a dead
// lock holder, and its interrupted transaction (killed after it), which the
// next writer completes. A cut transaction is never reported as an outside
// edit (edited.*, frontmatter.mismatch) and never leaves a torn journal
// line: its record says how to finish it.
var crashAllowed = map[string]bool{
	"temp.stale": true, "lock.dead-holder": true, "transaction.interrupted": true,
}

var tornLine = regexp.MustCompile(`^line (\d+) is a torn`)

// crashStats is what TestCrashKill measured.
type crashStats struct {
	mu       sync.Mutex
	started  int
	killed   int
	finished map[int]int    // exit code → count, processes not killed
	byKind   map[string]int // mutations started per kind
	rounds   int
	dirty    int            // rounds after which doctor found something
	codes    map[string]int // finding code → checks (doctor runs) that reported it
	torn     map[int]bool   // journal lines reported torn
	took     []time.Duration
	badExits int
	// appended holds journal.jsonl and progress.md as at the previous
	// check; checkedLines, the journal's line count then.
	appended     map[string][]byte
	checkedLines int
	// tempsLeft counts the temp files there before repair --temp;
	// outside, the journal lines that recorded an outside change, per
	// noticing verb and file.
	tempsLeft int
	outside   map[string]int
}

// TestCrashKill is docs/protocol.md §19's writers killed at random instants:
// two workers start orc-state processes of every mutating verb and SIGKILL
// most of them a random instant after they start; after each round of
// mutations every file must parse through the strict readers, and doctor
// may name only what a transaction cut between two of its files leaves
// behind. At the end repair --temp removes the temp files and ordinary
// verbs bring the state back to clean.
func TestCrashKill(t *testing.T) {
	budget := 20 * time.Second // a few hundred kills; the package's 2-minute budget (docs/reliability.md)
	if testing.Short() {
		budget = 10 * time.Second
	}
	began := time.Now()
	r := newRelRig(t, "30s")
	ids := make([]string, 10)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(relPlan(ids)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.must("", "slice", "init", plan)
	// Budgets large enough that no retry escalates (exit 5).
	r.must("", "decision", "set", "maxRetriesPerSlice", "1000000", "--provenance", "policy")
	r.must("", "decision", "set", "maxRetriesPerPhase", "1000000", "--provenance", "policy")
	r.must("", "decision", "set", "policy", "initial", "--provenance", "policy")
	r.must("", "jira", "bind", "ORC-1")
	r.must(relDigest("setup", 0), "digest", "write", "-")
	r.must("", "checkpoint", "--auto", "--trigger", "setup")

	// Calibrate: how long an uninterrupted mutation takes here (fsync
	// dominates), so that half of the kills can be spread over the whole
	// transaction and not only its first 8 ms.
	var calib []time.Duration
	for i := 0; i < 5; i++ {
		res := r.run("", "phase", "set", strconv.Itoa(i+2), "--label", "calibrate")
		if res.code != 0 {
			t.Fatalf("phase set: exit %d: %s", res.code, res.stderr)
		}
		calib = append(calib, res.took)
	}
	st := &crashStats{finished: map[int]int{}, byKind: map[string]int{}, codes: map[string]int{}, torn: map[int]bool{},
		took: calib, appended: map[string][]byte{}}
	t.Logf("setup took %v; an uninterrupted phase set takes %v (median of 5)", time.Since(began).Round(time.Millisecond), relMedian(calib))

	const workers, perRound = 2, 12
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	deadline := began.Add(budget)
	for round := 0; time.Now().Before(deadline); round++ {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(seed, uint64(round*workers+w)))
				for i := 0; i < perRound && time.Now().Before(deadline); i++ {
					crashOne(r, st, rng, w, round*perRound+i)
				}
			}()
		}
		wg.Wait()
		st.rounds++
		crashCheck(r, st, false)
		if t.Failed() && st.badExits > 20 {
			t.Fatalf("stopping after %d unexpected exits", st.badExits)
		}
	}
	crashCheck(r, st, true)

	// What the kills left: temp files (a kill before a transaction's
	// record) and perhaps the last killed transaction's record, which plain
	// repair completes first (and stops; its temp files become its files).
	if out := r.must("", "repair", "--branch", "main"); !strings.HasPrefix(out, "completed the interrupted ") && out != "nothing to repair in main\n" {
		t.Errorf("first repair: %q", out)
	}
	before := r.tempFiles()
	st.tempsLeft = len(before)
	st.outside = relJournalOutside(t, r)

	// repair --temp removes every leftover temp file, and then doctor
	// names none.
	out := r.must("", "repair", "--temp")
	if got := strings.Count(out, "removed "); got != len(before) {
		t.Errorf("repair --temp removed %d files, %d were there:\n%s", got, len(before), out)
	}
	if left := r.tempFiles(); len(left) != 0 {
		t.Errorf("temp files left after repair --temp: %v", left)
	}
	for _, f := range r.findings("doctor") {
		if f.Code == "temp.stale" {
			t.Errorf("doctor after repair --temp: %s: %s", f.Code, f.Message)
		}
	}

	// A cut transaction is completed by the next writer (or repair) from
	// its record, so no writer ever found files changed behind the
	// journal's back: no journal line records an outside edit.
	if st.outside["lines"] != 0 {
		t.Errorf("journal lines recording an outside edit: %s", relCounts(st.outside))
	}
	// Nothing is left for repair to fix, and ordinary verbs leave a clean
	// state.
	if out := r.must("", "repair", "--branch", "main"); out != "nothing to repair in main\n" {
		t.Errorf("second repair: %q", out)
	}
	r.must(relDigest("recovered", 1), "digest", "write", "-")
	r.must("", "decision", "set", "recovered", "yes", "--provenance", "flag")
	r.must("", "phase", "set", "2", "--label", "recovered")
	r.must("", "checkpoint", "--auto", "--trigger", "recovered")
	for _, verb := range []string{"doctor", "verify"} {
		for _, f := range r.findings(verb) {
			t.Errorf("%s after recovery: %s: %s", verb, f.Code, f.Message)
		}
	}
	if bad := r.parseChecks(); len(bad) > 0 {
		t.Errorf("after recovery: %s", strings.Join(bad, "; "))
	}
	if left := r.tempFiles(); len(left) != 0 {
		t.Errorf("temp files left by processes that were not killed: %v", left)
	}

	st.report(t, time.Since(began))
}

// crashOne starts one mutation and, three times in four, kills it.
func crashOne(r *relRig, st *crashStats, rng *rand.Rand, w, n int) {
	op := crashNext(r, rng, w, n)
	kill := time.Duration(-1)
	if rng.IntN(4) != 0 {
		if rng.IntN(2) == 0 {
			kill = time.Duration(rng.Int64N(int64(8*time.Millisecond) + 1)) // the brief's 0–8 ms
		} else {
			st.mu.Lock()
			span := relMedian(st.took) * 6 / 5
			st.mu.Unlock()
			kill = time.Duration(rng.Int64N(int64(span) + 1)) // anywhere in a whole transaction
		}
	}
	res := r.launch(op.stdin, kill, op.args...)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.started++
	st.byKind[op.kind]++
	if res.killed {
		st.killed++
		return
	}
	st.finished[res.code]++
	if res.code == 0 && len(st.took) < 400 {
		st.took = append(st.took, res.took)
	}
	if !slices.Contains(op.ok, res.code) {
		st.badExits++
		r.t.Errorf("orc-state %s: exit %d, want one of %v\nstderr: %s", strings.Join(op.args, " "), res.code, op.ok, res.stderr)
	}
}

// crashCheck asserts, at a quiescent moment, that every file parses and
// that doctor and verify name only allowed findings; final also runs verify
// with git.
func crashCheck(r *relRig, st *crashStats, final bool) {
	t := r.t
	for _, b := range r.parseChecks() {
		t.Errorf("round %d: %s", st.rounds, b)
	}
	if _, err := r.registry(); err != nil {
		t.Errorf("round %d: %v", st.rounds, err)
	}
	if _, err := r.sliceStatuses(); err != nil {
		t.Errorf("round %d: %v", st.rounds, err)
	}
	// The append-only files keep every byte they had at the previous check
	// (a torn tail stays; the next append starts a new line after it).
	for _, name := range []string{"journal.jsonl", "progress.md"} {
		data, err := os.ReadFile(filepath.Join(r.files, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("round %d: %v", st.rounds, err)
		}
		if prev := st.appended[name]; !bytes.HasPrefix(data, prev) {
			t.Errorf("round %d: %s rewrote bytes it had at the previous check (%d bytes then, %d now)", st.rounds, name, len(prev), len(data))
		}
		st.appended[name] = data
	}
	verbs := []string{"doctor"}
	if final || st.rounds%10 == 0 {
		verbs = append(verbs, "verify")
	}
	last := r.journalLines()
	for _, verb := range verbs {
		fs := r.findings(verb)
		if verb == "doctor" && len(fs) > 0 {
			st.dirty++
		}
		temps := 0
		seen := map[string]bool{}
		for _, f := range fs {
			if verb == "doctor" && !seen[f.Code] {
				seen[f.Code] = true
				st.codes[f.Code]++
			}
			if !crashAllowed[f.Code] {
				t.Errorf("round %d: %s: %s %s: %s", st.rounds, verb, f.Session, f.Code, f.Message)
				continue
			}
			switch f.Code {
			case "temp.stale":
				temps++
			case "journal.torn":
				m := tornLine.FindStringSubmatch(f.Message)
				if m == nil {
					t.Errorf("journal.torn without a line number: %s", f.Message)
					continue
				}
				line, _ := strconv.Atoi(m[1])
				// A torn line is a write cut at the end of the journal:
				// it must be new since the previous check (the file kept
				// every earlier byte, checked above), and the lines the
				// other worker appended after it must chain past it
				// (no journal.chain finding). A line that was whole at the
				// previous check can never become torn.
				if !st.torn[line] && line <= st.checkedLines {
					t.Errorf("round %d: journal line %d, whole at the previous check (%d lines), is now torn: %s", st.rounds, line, st.checkedLines, f.Message)
				}
				if !st.torn[line] {
					relLogTorn(t, st.appended["journal.jsonl"], line)
				}
				st.torn[line] = true
			}
		}
		if temps > st.killed*tempsPerTransaction {
			t.Errorf("round %d: %d temp files, more than %d killed processes can leave (%d each)", st.rounds, temps, st.killed, tempsPerTransaction)
		}
	}
	st.checkedLines = last
}

// relLogTorn logs where a torn journal line ends: a write cut by SIGKILL
// stops at a page boundary of the file (the kernel copies an append page
// by page and gives up between two pages when the process is dying).
func relLogTorn(t *testing.T, journal []byte, line int) {
	start := 0
	for i := 1; i < line; i++ {
		n := bytes.IndexByte(journal[start:], '\n')
		if n < 0 {
			return
		}
		start += n + 1
	}
	end := len(journal)
	if n := bytes.IndexByte(journal[start:], '\n'); n >= 0 {
		end = start + n
	}
	t.Logf("torn journal line %d: %d bytes, ends at offset %d (offset mod 4096 = %d): ...%q",
		line, end-start, end, end%4096, journal[max(start, end-24):end])
}

// report logs the counts (docs/reliability.md quotes them).
func (st *crashStats) report(t *testing.T, took time.Duration) {
	finished := 0
	for _, n := range st.finished {
		finished += n
	}
	t.Logf("crash: %d mutations in %v: %d killed, %d finished (exit codes %v)", st.started, took.Round(time.Second), st.killed, finished, st.finished)
	t.Logf("crash: mutations per verb: %s", relCounts(st.byKind))
	t.Logf("crash: %d checks, %d found something; checks reporting each doctor code: %s", st.rounds+1, st.dirty, relCounts(st.codes))
	t.Logf("crash: %d temp files left (removed by repair --temp); journal lines recording an outside edit: %d", st.tempsLeft, st.outside["lines"])
	t.Logf("crash: torn journal lines: %d; median uninterrupted mutation %v", len(st.torn), relMedian(st.took))
	if st.started == 0 || st.killed == 0 || finished == 0 {
		t.Errorf("the mix did not both kill and finish processes")
	}
}

func relMedian(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 50 * time.Millisecond
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func relCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// soakWriters is how many writers TestSoakWriters runs at once.
const soakWriters = 50

// soakWriter is what one writer had acknowledged (exit 0).
type soakWriter struct {
	id        int
	prs       []string          // linked PR URLs
	decisions map[string]string // key → value
	markers   []string          // progress markers
	sliceAt   string            // its slice's last acknowledged status
	artifactN int               // n of its last acknowledged artifact, -1 when none
	supersede []string          // values of its superseded key, in order
	counts    map[string]int    // acknowledged mutations per kind
	gate2     int               // gate records refused because the phase moved
	errs      []string
}

// soakKinds is the writer's round: its own (checkable) effects, and the
// shared fields every writer changes.
var soakKinds = []string{
	"link-pr", "decision set", "progress append", "slice set", "phase set", "link-pr",
	"artifact put", "status set", "decision set", "gate record", "progress append", "jira bind",
	"slice set", "digest write", "checkpoint --auto", "init", "decision set --supersede", "jira unbind",
}

// TestSoakWriters is docs/protocol.md §19's "50 concurrent writers mixing all
// mutating verbs: zero lost updates, zero invalid files". Each writer
// launches orc-state processes one after another for a bounded time,
// remembering every acknowledged change that only it makes; at the end
// each one must be there exactly once, and verify and doctor must find
// nothing.
func TestSoakWriters(t *testing.T) {
	budget := 10 * time.Second
	if testing.Short() {
		budget = 5 * time.Second
	}
	began := time.Now()
	r := newRelRig(t, "60s")
	ids := make([]string, soakWriters)
	for i := range ids {
		ids[i] = fmt.Sprintf("w%d", i)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(relPlan(ids)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.must("", "slice", "init", plan)
	r.must("", "decision", "set", "maxRetriesPerSlice", "1000000", "--provenance", "policy")
	r.must("", "decision", "set", "maxRetriesPerPhase", "1000000", "--provenance", "policy")
	r.must(relDigest("setup", 0), "digest", "write", "-")
	setupLines := r.journalLines()

	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	writers := make([]*soakWriter, soakWriters)
	var wg sync.WaitGroup
	for i := range writers {
		w := &soakWriter{id: i, decisions: map[string]string{}, sliceAt: "pending", artifactN: -1, counts: map[string]int{}}
		writers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				soakStep(r, w, soakKinds[(w.id*7+n)%len(soakKinds)], n)
			}
		}()
	}
	wg.Wait()
	ran := time.Since(began)

	total, kinds, gate2 := 0, map[string]int{}, 0
	for _, w := range writers {
		for _, e := range w.errs {
			t.Error(e)
		}
		for k, n := range w.counts {
			kinds[k] += n
			total += n
		}
		gate2 += w.gate2
	}
	t.Logf("soak: %d writers, %d acknowledged mutations in %v (%.1f/s); %d gate records refused (phase moved): %s",
		soakWriters, total, ran.Round(time.Millisecond), float64(total)/ran.Seconds(), gate2, relCounts(kinds))
	if t.Failed() {
		t.FailNow()
	}

	soakCheck(t, r, writers, kinds, setupLines)
	t.Logf("soak: checked in %v", (time.Since(began) - ran).Round(time.Millisecond))
}

// soakStep runs the writer's n-th mutation of the given kind and
// remembers it when acknowledged.
func soakStep(r *relRig, w *soakWriter, kind string, n int) {
	id := fmt.Sprintf("w%d", w.id)
	var args []string
	stdin := ""
	ack := func() {}
	switch kind {
	case "link-pr":
		u := fmt.Sprintf("https://example.com/%s/pr/%d", id, n)
		args = []string{"link-pr", "--repo", id + "/repo", "--url", u, "--number", strconv.Itoa(n)}
		ack = func() { w.prs = append(w.prs, u) }
	case "decision set":
		k, v := fmt.Sprintf("%s_%d", id, n), fmt.Sprintf("value %s %d", id, n)
		args = []string{"decision", "set", k, v, "--provenance", "flag"}
		ack = func() { w.decisions[k] = v }
	case "decision set --supersede":
		v := fmt.Sprintf("%s try %d", id, n)
		args = []string{"decision", "set", id + "_sup", v, "--provenance", "asked", "--supersede"}
		ack = func() { w.supersede = append(w.supersede, v) }
	case "progress append":
		m := fmt.Sprintf("<<soak:%s:%d>>", id, n)
		args, stdin = []string{"progress", "append", "-", "--title", id + " step"}, "did step "+m+"\n"
		ack = func() { w.markers = append(w.markers, m) }
	case "slice set":
		flags := relNextSlice(w.sliceAt, n, r.head)
		args = append([]string{"slice", "set", id}, flags...)
		ack = func() { w.sliceAt = flags[1] }
	case "artifact put":
		args, stdin = []string{"artifact", "put", id + ".json", "-"}, fmt.Sprintf(`{"writer":%q,"n":%d}`, id, n)
		ack = func() { w.artifactN = n }
	case "phase set":
		args = []string{"phase", "set", strconv.Itoa(1 + (w.id+n)%9), "--label", id}
	case "status set":
		args = []string{"status", "set", []string{"in_progress", "paused"}[n%2]}
	case "jira bind":
		args = []string{"jira", "bind", fmt.Sprintf("W%d-%d", w.id, n)}
	case "jira unbind":
		args = []string{"jira", "unbind"}
	case "digest write":
		args, stdin = []string{"digest", "write", "-"}, relDigest(id, n)
	case "checkpoint --auto":
		args = []string{"checkpoint", "--auto", "--trigger", id}
	case "init":
		// A re-run that changes the entry (each writer its own
		// description); init_rerun_journaled.txtar pins that it
		// is not mistaken for an outside edit.
		args = []string{"init", "--command", "flow", "--total-phases", "9", "--description", "soak " + id}
	case "gate record":
		s, err := r.registry()
		if err != nil {
			w.errs = append(w.errs, "before gate record: "+err.Error())
			return
		}
		p, err := strconv.Atoi(string(s.Phase))
		if err != nil {
			kind, args = "phase set", []string{"phase", "set", "1", "--label", id}
			break
		}
		args = []string{"gate", "record", strconv.Itoa(p), "--verdict", []string{"approved", "changes_requested"}[n%2], "--reviewer", id}
	}
	res := r.run(stdin, args...)
	switch {
	case res.code == 0:
		ack()
		w.counts[kind]++
	case kind == "gate record" && res.code == 2 &&
		(strings.Contains(res.stderr, "but the session is at phase") || strings.Contains(res.stderr, "the session is done")):
		w.gate2++ // another writer moved the phase between our read and our write
	default:
		w.errs = append(w.errs, fmt.Sprintf("%s: orc-state %s: exit %d\nstderr: %s", id, strings.Join(args, " "), res.code, res.stderr))
	}
}

// soakCheck asserts zero lost updates and zero invalid files.
func soakCheck(t *testing.T, r *relRig, writers []*soakWriter, kinds map[string]int, setupLines int) {
	if bad := r.parseChecks(); len(bad) > 0 {
		t.Errorf("files do not parse: %s", strings.Join(bad, "; "))
	}
	for _, verb := range []string{"verify", "doctor"} {
		for _, f := range r.findings(verb) {
			t.Errorf("%s: %s %s: %s", verb, f.Session, f.Code, f.Message)
		}
	}
	if left := r.tempFiles(); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}

	// PR URLs: each acknowledged one exactly once, nothing else.
	var got relSession
	if err := json.Unmarshal([]byte(r.must("", "get")), &got); err != nil {
		t.Fatalf("get: %v", err)
	}
	linked := map[string]int{}
	for _, pr := range got.LinkedPRs {
		linked[pr.URL]++
	}
	acked := 0
	for _, w := range writers {
		for _, u := range w.prs {
			acked++
			if linked[u] != 1 {
				t.Errorf("%s is linked %d times, want 1", u, linked[u])
			}
		}
	}
	if len(got.LinkedPRs) != acked {
		t.Errorf("orc.json links %d PRs, %d were acknowledged", len(got.LinkedPRs), acked)
	}

	// Decisions: every acknowledged key with its value; each writer's
	// superseded key at its last value with the others in its history.
	var dec struct {
		Decisions map[string]struct {
			Value   string `json:"value"`
			History []struct {
				Value string `json:"value"`
			} `json:"history"`
		} `json:"decisions"`
	}
	if err := json.Unmarshal([]byte(r.must("", "decision", "get")), &dec); err != nil {
		t.Fatalf("decision get: %v", err)
	}
	for _, w := range writers {
		for k, v := range w.decisions {
			if d, ok := dec.Decisions[k]; !ok || d.Value != v {
				t.Errorf("decision %s = %q (present %v), want %q", k, d.Value, ok, v)
			}
		}
		if len(w.supersede) == 0 {
			continue
		}
		k := fmt.Sprintf("w%d_sup", w.id)
		d := dec.Decisions[k]
		var hist []string
		for _, h := range d.History {
			hist = append(hist, h.Value)
		}
		if d.Value != w.supersede[len(w.supersede)-1] || !slices.Equal(hist, w.supersede[:len(w.supersede)-1]) {
			t.Errorf("decision %s = %q with history %q, want %q after %q", k, d.Value, hist, w.supersede[len(w.supersede)-1], w.supersede[:len(w.supersede)-1])
		}
	}

	// Progress: every marker exactly once.
	progress, err := os.ReadFile(filepath.Join(r.files, "progress.md"))
	if err != nil && kinds["progress append"] > 0 {
		t.Fatal(err)
	}
	for _, w := range writers {
		for _, m := range w.markers {
			if c := bytes.Count(progress, []byte(m)); c != 1 {
				t.Errorf("progress.md holds %s %d times, want 1", m, c)
			}
		}
	}

	// Slices: each writer's slice at its last acknowledged status.
	var rows []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(r.must("", "slice", "list", "--json")), &rows); err != nil {
		t.Fatalf("slice list --json: %v", err)
	}
	status := map[string]string{}
	for _, row := range rows {
		status[row.ID] = row.Status
	}
	for _, w := range writers {
		if id := fmt.Sprintf("w%d", w.id); status[id] != w.sliceAt {
			t.Errorf("slice %s is %q, its last acknowledged status is %q", id, status[id], w.sliceAt)
		}
	}

	// Artifacts: each writer's file holds its last acknowledged content.
	for _, w := range writers {
		if w.artifactN < 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(r.files, fmt.Sprintf("w%d.json", w.id)))
		var a struct {
			N       int    `json:"n"`
			HeadSha string `json:"headSha"`
		}
		if err != nil || json.Unmarshal(data, &a) != nil || a.N != w.artifactN || a.HeadSha != r.head {
			t.Errorf("artifact w%d.json = %s (%v), want n %d stamped %s", w.id, data, err, w.artifactN, r.head)
		}
	}

	// The journal: one line per acknowledged change of the writers' own
	// kinds (each always changes something), and no more lines than
	// acknowledged mutations (a no-op writes nothing).
	verbs, lines := relJournalVerbs(t, r)
	for _, k := range []string{"link-pr", "progress append", "slice set", "artifact put"} {
		if verbs[k] != kinds[k] {
			t.Errorf("journal has %d %q lines, %d were acknowledged", verbs[k], k, kinds[k])
		}
	}
	if want := kinds["decision set"] + kinds["decision set --supersede"]; verbs["decision set"]-2 != want {
		t.Errorf("journal has %d decision set lines after setup, %d were acknowledged", verbs["decision set"]-2, want)
	}
	total := 0
	for _, n := range kinds {
		total += n
	}
	if lines-setupLines > total {
		t.Errorf("journal grew by %d lines for %d acknowledged mutations", lines-setupLines, total)
	}
	t.Logf("soak: journal %d lines: %s; %d PRs, %d progress markers", lines, relCounts(verbs), acked, bytes.Count(progress, []byte("<<soak:")))
}

// relJournalVerbs counts the journal's lines per verb through `log --json`.
func relJournalVerbs(t *testing.T, r *relRig) (map[string]int, int) {
	out := r.must("", "log", "--json")
	verbs := map[string]int{}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var e struct {
			Seq  int    `json:"seq"`
			Verb string `json:"verb"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log --json line %d: %v", n+1, err)
		}
		n++
		if e.Seq != n {
			t.Errorf("journal line %d has seq %d", n, e.Seq)
		}
		verbs[e.Verb]++
	}
	return verbs, n
}

// relJournalOutside counts the journal lines whose writer found files
// changed since the line before (journal field "outside"), per noticing
// verb and file ("phase set:entry" and so on), and the lines themselves
// ("lines").
func relJournalOutside(t *testing.T, r *relRig) map[string]int {
	out := map[string]int{}
	for n, line := range strings.Split(strings.TrimSpace(r.must("", "log", "--json")), "\n") {
		var e struct {
			Verb    string   `json:"verb"`
			Outside []string `json:"outside"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Errorf("log --json line %d: %v", n+1, err)
			continue
		}
		for _, what := range e.Outside {
			out[e.Verb+":"+what]++
		}
		if len(e.Outside) > 0 {
			out["lines"]++
		}
	}
	return out
}

// relCase is one case of the adversarial corpus manifest.
type relCase struct {
	name   string
	setup  []string // "state PATH FILE" steps, see relCorpusSetup
	args   []string
	stdin  string // a corpus file name, or ""
	code   int
	stderr *regexp.Regexp
}

// adversarialDir is the CLI's corpus of hostile files, kept beside its
// scenarios (schema's tests read it too).
const adversarialDir = "../../cmd/orc-state/testdata/adversarial"

// TestAdversarialCorpus runs testdata/adversarial/cases.txt: each case
// feeds a hostile file of the corpus to orc-state (as stdin, as a plan
// file, or in place of a state file) and expects a refusal with a given
// exit code and message, with .orc/ byte-identical afterwards. The CLI
// runs in this process: the input is what is tested.
func TestAdversarialCorpus(t *testing.T) {
	cases := relLoadCorpus(t, filepath.Join(adversarialDir, "cases.txt"))
	r := newRelRig(t, "10s")
	r.must("", "decision", "set", "seed", "1", "--provenance", "flag")
	corpus := relAbs(t, adversarialDir)
	r.must("", "slice", "init", filepath.Join(corpus, "plan-valid.json"))
	pristine := filepath.Join(t.TempDir(), "pristine")
	copyTree := func(t *testing.T, from, to string) {
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := statetest.CopyTree(from, to); err != nil {
			t.Fatal(err)
		}
	}
	copyTree(t, r.orc, pristine)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rr := *r // the same rig, reporting to the subtest
			rr.t = t
			if err := os.RemoveAll(r.orc); err != nil {
				t.Fatal(err)
			}
			copyTree(t, pristine, r.orc)
			for _, s := range c.setup {
				relCorpusSetup(t, r, s)
			}
			before := relSnapshot(t, r.orc)
			stdin := ""
			if c.stdin != "" {
				stdin = string(relCorpusFile(t, c.stdin))
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$CORPUS", corpus)
			}
			res := rr.here(stdin, args...)
			if res.code != c.code {
				t.Errorf("orc-state %s: exit %d, want %d\nstderr: %s", strings.Join(c.args, " "), res.code, c.code, res.stderr)
			}
			if !c.stderr.MatchString(res.stderr) {
				t.Errorf("stderr %q does not match %q", res.stderr, c.stderr)
			}
			if res.stdout != "" {
				t.Errorf("a refusal printed on stdout: %q", res.stdout)
			}
			if strings.Contains(res.stderr, "goroutine ") || strings.Contains(res.stderr, "panic:") {
				t.Errorf("orc-state crashed:\n%s", res.stderr)
			}
			if after := relSnapshot(t, r.orc); after != before {
				t.Errorf("the refusal changed .orc/:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			t.Logf("exit %d: %s", res.code, strings.TrimSpace(res.stderr))
		})
	}
}

// relLoadCorpus parses the manifest: blocks of "key: value" lines
// separated by blank lines; # starts a comment line. Keys: case, setup
// (repeatable), args (see relSplitArgs), stdin, exit, stderr (a regexp).
func relLoadCorpus(t *testing.T, path string) []relCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []relCase
	var cur *relCase
	flush := func() {
		if cur == nil {
			return
		}
		if cur.name == "" || len(cur.args) == 0 || cur.stderr == nil {
			t.Fatalf("%s: incomplete case %+v", path, *cur)
		}
		out = append(out, *cur)
		cur = nil
	}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			flush()
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s:%d: not key: value", path, n+1)
		}
		v = strings.TrimSpace(v)
		if cur == nil {
			cur = &relCase{}
		}
		switch k {
		case "case":
			cur.name = v
		case "setup":
			cur.setup = append(cur.setup, v)
		case "args":
			cur.args, err = relSplitArgs(v)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
		case "stdin":
			cur.stdin = v
		case "exit":
			if cur.code, err = strconv.Atoi(v); err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
		case "stderr":
			if cur.stderr, err = regexp.Compile(v); err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
		default:
			t.Fatalf("%s:%d: unknown key %q", path, n+1, k)
		}
	}
	flush()
	if len(out) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return out
}

// relSplitArgs splits on spaces; a field in double quotes is unquoted with
// Go rules (so \t, \x1b and \xff can be written).
func relSplitArgs(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoted field in %q: %v", s, err)
			}
			u, _ := strconv.Unquote(q)
			out = append(out, u)
			s = s[len(q):]
			continue
		}
		f, rest, _ := strings.Cut(s, " ")
		out = append(out, f)
		s = rest
	}
	return out, nil
}

// relCorpusFile returns a corpus file. A name of the form gen:KIND:N is
// generated instead of stored: "big-text" (N bytes of 'a'), "big-json" (an
// object holding a string of N bytes), "deep-array" (an object holding
// arrays nested N deep), "gh-token" (an object holding something shaped
// like a GitHub token, assembled here so that no token sits in the tree).
func relCorpusFile(t *testing.T, name string) []byte {
	t.Helper()
	if gen, ok := strings.CutPrefix(name, "gen:"); ok {
		kind, num, _ := strings.Cut(gen, ":")
		n, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("corpus %s: %v", name, err)
		}
		switch kind {
		case "big-text":
			return bytes.Repeat([]byte("a"), n)
		case "big-json":
			return []byte(`{"pad":"` + strings.Repeat("a", n) + `"}`)
		case "gh-token":
			return []byte(`{"token":"` + "ghp" + "_" + strings.Repeat("aB3", 12) + `"}`)
		case "deep-array":
			return []byte(`{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
		}
		t.Fatalf("corpus %s: unknown generator", name)
	}
	data, err := os.ReadFile(filepath.Join(adversarialDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// relCorpusSetup applies one setup step of a case: "state PATH FILE"
// replaces .orc/PATH with a corpus file (the hand edit the case is about).
func relCorpusSetup(t *testing.T, r *relRig, step string) {
	t.Helper()
	f := strings.Fields(step)
	if len(f) != 3 || f[0] != "state" {
		t.Fatalf("unknown setup step %q", step)
	}
	if err := os.WriteFile(filepath.Join(r.orc, filepath.FromSlash(f[1])), relCorpusFile(t, f[2]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// relSnapshot is the manifest of every entry under root (see manifest).
func relSnapshot(t *testing.T, root string) string {
	t.Helper()
	text, err := statetest.Manifest(root)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func relAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
