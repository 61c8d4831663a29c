package proctest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/journal"
)

// The tests in this file start many real orc-state processes at once
// against one state dir (docs/protocol.md §4 (one lock), §8
// compare-and-set, §19 zero lost updates) and then check the files and the
// journal they leave behind.

// raceWriters is how many processes race in each test.
const raceWriters = 20

// raceDeadline bounds each test, processes included; a 2-core machine
// finishes in a few seconds.
const raceDeadline = 45 * time.Second

// raceRepo is a rig (clitest.Rig, template main: one commit and an
// orc-state session on main, with its tree clean) whose processes share
// one deadline.
type raceRepo struct {
	*clitest.Rig
	t    *testing.T
	ctx  context.Context
	tmp  string // scratch space outside the repository
	orc  string // the state dir
	sess string // the session's files dir
}

// raceResult is one finished process.
type raceResult struct {
	args           []string
	code           int
	stdout, stderr string
	err            error // set when the process could not run or was killed
}

func newRaceRepo(t *testing.T) *raceRepo {
	t.Helper()
	return newRaceRepoWithin(t, raceDeadline)
}

// newRaceRepoWithin is newRaceRepo for a test that needs another deadline.
func newRaceRepoWithin(t *testing.T, deadline time.Duration) *raceRepo {
	t.Helper()
	rig := clitest.NewRig(t, "main")
	rig.Env = rig.Env.With("ORC_LOCK_TIMEOUT=30s")
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	r := &raceRepo{Rig: rig, t: t, ctx: ctx, tmp: filepath.Join(filepath.Dir(rig.Dir), "tmp")}
	if err := os.MkdirAll(r.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	r.orc = filepath.Join(r.Dir, ".orc")
	r.sess = filepath.Join(r.orc, "main", "files")
	return r
}

// command prepares one orc-state process in the repository.
func (r *raceRepo) command(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := r.Command(r.ctx, "", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// raceFinish turns a process's outcome into a raceResult.
func raceFinish(args []string, err error, stdout, stderr *bytes.Buffer) raceResult {
	res := raceResult{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.Exited():
		res.code = exit.ExitCode()
	default:
		res.code, res.err = -1, err
	}
	return res
}

// run runs one orc-state process to completion.
func (r *raceRepo) run(args ...string) raceResult {
	cmd, stdout, stderr := r.command(args...)
	return raceFinish(args, cmd.Run(), stdout, stderr)
}

// mustRun runs orc-state and fails the test unless it exits 0.
func (r *raceRepo) mustRun(args ...string) raceResult {
	r.t.Helper()
	res := r.run(args...)
	if res.err != nil || res.code != 0 {
		r.t.Fatalf("orc-state %s: exit %d (%v)\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, res.err, res.stdout, res.stderr)
	}
	return res
}

// race starts one process per argument list, all released together, and
// waits for every one of them.
func (r *raceRepo) race(argv [][]string) []raceResult {
	r.t.Helper()
	results := make([]raceResult, len(argv))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, args := range argv {
		cmd, stdout, stderr := r.command(args...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = raceFinish(args, cmd.Run(), stdout, stderr)
		}()
	}
	close(start)
	wg.Wait()
	for _, res := range results {
		if res.err != nil {
			r.t.Fatalf("orc-state %s did not finish: %v\nstderr: %s", strings.Join(res.args, " "), res.err, res.stderr)
		}
	}
	return results
}

// journalVerbs reads the session's journal through `orc-state log --json`
// and counts the entries of each verb; it also checks that seq runs 1..n.
func (r *raceRepo) journalVerbs() map[string]int {
	r.t.Helper()
	res := r.mustRun("log", "--json")
	if res.stderr != "" {
		r.t.Errorf("log --json warned: %s", res.stderr)
	}
	verbs := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(res.stdout))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	seq := 0
	for sc.Scan() {
		var e struct {
			Seq  int    `json:"seq"`
			Verb string `json:"verb"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			r.t.Fatalf("journal line %d is not JSON: %v: %s", seq+1, err, sc.Text())
		}
		seq++
		if e.Seq != seq {
			r.t.Errorf("journal line %d has seq %d", seq, e.Seq)
		}
		verbs[e.Verb]++
	}
	if err := sc.Err(); err != nil {
		r.t.Fatal(err)
	}
	return verbs
}

// verifyClean asserts that `orc-state verify` finds nothing: the journal
// chain is intact and its last digests match the files.
func (r *raceRepo) verifyClean() {
	r.t.Helper()
	res := r.run("verify")
	if res.err != nil || res.code != 0 || res.stdout != "" {
		r.t.Errorf("verify: exit %d (%v)\nstdout: %s\nstderr: %s", res.code, res.err, res.stdout, res.stderr)
	}
}

// noStrayFiles fails on anything in the session folder but the expected
// files (a leftover temp file would mean a torn or abandoned write). The
// journal's anchor goes with the journal.
func (r *raceRepo) noStrayFiles(want ...string) {
	r.t.Helper()
	entries, err := os.ReadDir(r.sess)
	if err != nil {
		r.t.Fatal(err)
	}
	allowed := map[string]bool{journal.AnchorName: slices.Contains(want, journal.FileName)}
	for _, w := range want {
		allowed[w] = true
	}
	for _, e := range entries {
		if !allowed[e.Name()] {
			r.t.Errorf("unexpected file in %s: %s", r.sess, e.Name())
		}
	}
}

// TestConcurrentDecisionSet: 20 processes settle one key to 20 different
// values at once. Compare-and-set inside the lock lets exactly one win;
// every other one exits 1 naming the winner's value, and nothing is lost
// or torn.
func TestConcurrentDecisionSet(t *testing.T) {
	r := newRaceRepo(t)
	r.verifyClean()

	argv := make([][]string, raceWriters)
	for i := range argv {
		argv[i] = []string{"decision", "set", "k", "v" + strconv.Itoa(i), "--provenance", "flag"}
	}
	results := r.race(argv)

	winner := -1
	for i, res := range results {
		if res.code != 0 {
			continue
		}
		if winner >= 0 {
			t.Errorf("both v%d and v%d were accepted", winner, i)
		}
		winner = i
		if res.stdout != "" || res.stderr != "" {
			t.Errorf("the winner printed stdout %q stderr %q", res.stdout, res.stderr)
		}
	}
	if winner < 0 {
		for _, res := range results {
			t.Logf("%v: exit %d: %s", res.args, res.code, res.stderr)
		}
		t.Fatal("no process settled the key")
	}
	want := "v" + strconv.Itoa(winner)
	named := fmt.Sprintf("'k' already settled (%s)", want)
	for i, res := range results {
		if i == winner {
			continue
		}
		if res.code != 1 {
			t.Errorf("decision set k v%d: exit %d, want 1\nstderr: %s", i, res.code, res.stderr)
			continue
		}
		if !strings.Contains(res.stderr, named) {
			t.Errorf("decision set k v%d: stderr does not name the settled value %s:\n%s", i, want, res.stderr)
		}
		if strings.Count(strings.TrimRight(res.stderr, "\n"), "\n") > 1 {
			t.Errorf("decision set k v%d: stderr is more than a message and a hint:\n%s", i, res.stderr)
		}
	}

	data, err := os.ReadFile(filepath.Join(r.sess, "decisions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Schema    int `json:"schema"`
		Decisions map[string]struct {
			Value      string            `json:"value"`
			Provenance string            `json:"provenance"`
			SettledAt  string            `json:"settledAt"`
			History    []json.RawMessage `json:"history"`
		} `json:"decisions"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("decisions.json is not valid: %v\n%s", err, data)
	}
	if file.Schema != 1 || len(file.Decisions) != 1 {
		t.Fatalf("decisions.json: schema %d, %d keys; want schema 1 and only k\n%s", file.Schema, len(file.Decisions), data)
	}
	k := file.Decisions["k"]
	if k.Value != want || k.Provenance != "flag" || k.SettledAt == "" || len(k.History) != 0 {
		t.Errorf("decisions.json k = %+v, want value %s, provenance flag, no history", k, want)
	}

	if got := r.mustRun("decision", "get", "k").stdout; got != want+"\n" {
		t.Errorf("decision get k = %q, want %q", got, want+"\n")
	}
	if got := r.mustRun("decision", "get", "k", "--echo").stdout; got != "using settled decision: k="+want+" (flag)\n" {
		t.Errorf("decision get k --echo = %q", got)
	}

	verbs := r.journalVerbs()
	if verbs["decision set"] != 1 {
		t.Errorf("journal has %d decision set entries, want exactly 1 (the winner): %v", verbs["decision set"], verbs)
	}
	r.noStrayFiles("checkpoint.md", "journal.jsonl", "decisions.json")
	r.verifyClean()
}

// TestConcurrentSliceSet: 20 processes each move a different slice of one
// ledger to red at once. Every read-modify-write holds the lock, so no
// update is lost: all 20 slices end red, the ledger stays valid and the
// journal has one entry per change.
func TestConcurrentSliceSet(t *testing.T) {
	r := newRaceRepo(t)

	type planSlice struct {
		ID    int    `json:"id"`
		Title string `json:"title"`
	}
	plan := struct {
		Slices []planSlice `json:"slices"`
	}{}
	for i := 1; i <= raceWriters; i++ {
		plan.Slices = append(plan.Slices, planSlice{ID: i, Title: fmt.Sprintf("slice %d", i)})
	}
	data, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(r.tmp, "plan.json") // outside the worktree: the tree stays clean
	if err := os.WriteFile(planFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.mustRun("slice", "init", planFile)
	r.verifyClean()

	argv := make([][]string, raceWriters)
	for i := range argv {
		argv[i] = []string{"slice", "set", strconv.Itoa(i + 1), "--status", "red"}
	}
	for _, res := range r.race(argv) {
		if res.code != 0 {
			t.Errorf("orc-state %s: exit %d\nstderr: %s", strings.Join(res.args, " "), res.code, res.stderr)
		}
	}

	// Every slice is red, through the CLI ...
	list := r.mustRun("slice", "list").stdout
	lines := strings.Split(strings.TrimRight(list, "\n"), "\n")
	if len(lines) != raceWriters {
		t.Fatalf("slice list has %d rows, want %d:\n%s", len(lines), raceWriters, list)
	}
	for i, line := range lines {
		want := fmt.Sprintf("%d\tred\tslice %d\t-", i+1, i+1)
		if line != want {
			t.Errorf("slice list row %d = %q, want %q", i+1, line, want)
		}
	}
	if res := r.run("slice", "list", "--status", "pending"); res.code != 0 || res.stdout != "" {
		t.Errorf("slice list --status pending: exit %d, stdout %q; want 0 and no rows", res.code, res.stdout)
	}

	// ... and in the file, which is valid JSON with one entry per slice.
	data, err = os.ReadFile(filepath.Join(r.sess, "slices.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ledger struct {
		Slices []struct {
			ID       int    `json:"id"`
			Title    string `json:"title"`
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
		} `json:"slices"`
	}
	if err := json.Unmarshal(data, &ledger); err != nil {
		t.Fatalf("slices.json is not valid JSON: %v\n%s", err, data)
	}
	if len(ledger.Slices) != raceWriters {
		t.Fatalf("slices.json has %d slices, want %d", len(ledger.Slices), raceWriters)
	}
	for i, s := range ledger.Slices {
		if s.ID != i+1 || s.Status != "red" || s.Attempts != 1 || s.Title != fmt.Sprintf("slice %d", i+1) {
			t.Errorf("slices.json slice %d = %+v, want id %d, red, 1 attempt", i, s, i+1)
		}
	}

	verbs := r.journalVerbs()
	if verbs["slice set"] != raceWriters {
		t.Errorf("journal has %d slice set entries, want %d: %v", verbs["slice set"], raceWriters, verbs)
	}
	if verbs["slice init"] != 1 {
		t.Errorf("journal has %d slice init entries, want 1: %v", verbs["slice init"], verbs)
	}
	r.noStrayFiles("checkpoint.md", "journal.jsonl", "slices.json")
	r.verifyClean()
}
