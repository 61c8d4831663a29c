package proctest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestConcurrentWriters is docs/protocol.md §19's reliability budget: 50 real
// orc-state processes, started together against one session, mixing
// link-pr, phase set, digest write and status set. The original lost every
// session with 20 concurrent link-pr calls (reference-orc.md W-A, A1); here
// every cwCall must succeed, no update may be lost, every file must parse, the
// journal must hold exactly the changes made, and verify must pass.
func TestConcurrentWriters(t *testing.T) {
	// The repository and its session, nine phases (clitest's template
	// main).
	r := clitest.NewRig(t, "main")
	r.Timeout = 60 * time.Second
	repo := r.Dir
	orc := func(stdin string, args ...string) (string, string, int) {
		code, stdout, stderr := r.Exec(stdin, args...)
		return stdout, stderr, code
	}

	calls := cwCalls()
	began := time.Now()
	results := cwRunTogether(t, r, calls)
	t.Logf("%d concurrent processes finished in %v", len(calls), time.Since(began).Round(time.Millisecond))

	for i, r := range results {
		if r.code != 0 {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(calls[i].args, " "), r.code, r.stderr)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// The registry parses, through the tool and directly.
	if _, errOut, code := orc("", "sessions"); code != 0 {
		t.Fatalf("sessions: exit %d, stderr %q", code, errOut)
	}
	getOut, errOut, code := orc("", "get")
	if code != 0 {
		t.Fatalf("get: exit %d, stderr %q", code, errOut)
	}
	var got cwSession
	if err := json.Unmarshal([]byte(getOut), &got); err != nil {
		t.Fatalf("get printed invalid JSON: %v\n%s", err, getOut)
	}
	reg := cwReadRegistry(t, filepath.Join(repo, ".orc", "orc.json"))
	if len(reg.Sessions) != 1 {
		t.Fatalf("orc.json has %d sessions, want 1", len(reg.Sessions))
	}
	s := reg.Sessions[0]
	if s.Phase != got.Phase || s.Status != got.Status || s.UpdatedAt != got.UpdatedAt || len(s.LinkedPRs) != len(got.LinkedPRs) {
		t.Errorf("get and orc.json disagree: get %+v, orc.json %+v", got, s)
	}

	// Every link-pr survived, exactly once, with its number.
	seen := map[string]int{}
	for _, pr := range s.LinkedPRs {
		seen[pr.URL]++
		want := strings.TrimPrefix(pr.URL, "https://example.com/pr/")
		if pr.Number == nil || strconv.Itoa(*pr.Number) != want || pr.Repo != "r" {
			t.Errorf("linked PR %+v is not what was passed", pr)
		}
	}
	for i := 1; i <= cwLinkCalls; i++ {
		u := cwPRURL(i)
		if seen[u] != 1 {
			t.Errorf("%s is linked %d times, want exactly 1", u, seen[u])
		}
	}
	if len(s.LinkedPRs) != cwLinkCalls {
		t.Errorf("orc.json has %d linked PRs, want %d", len(s.LinkedPRs), cwLinkCalls)
	}

	cwCheckJournal(t, r, s, calls)
	cwCheckFrontmatter(t, filepath.Join(repo, ".orc", "main", "files", "checkpoint.md"), s)
	cwCheckNoTempFiles(t, filepath.Join(repo, ".orc"))

	if out, errOut, code := orc("", "verify"); code != 0 {
		t.Errorf("verify: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

const (
	cwLinkCalls   = 20
	cwPhaseCalls  = 10
	cwDigestCalls = 10
	cwStatusCalls = 10
)

// cwCall is one orc-state invocation of the concurrent mix.
type cwCall struct {
	args  []string
	stdin string
}

// cwCalls is the mix: 20 link-pr, 10 phase set (1..9, then 1
// again), 10 distinct digests and 10 status set alternating paused and
// in_progress, interleaved so that each kind starts early.
func cwCalls() []cwCall {
	var link, phase, digest, status []cwCall
	for i := 1; i <= cwLinkCalls; i++ {
		link = append(link, cwCall{args: []string{"link-pr", "--repo", "r", "--url", cwPRURL(i), "--number", strconv.Itoa(i)}})
	}
	for i := 0; i < cwPhaseCalls; i++ {
		phase = append(phase, cwCall{args: []string{"phase", "set", strconv.Itoa(i%9 + 1)}})
	}
	for i := 1; i <= cwDigestCalls; i++ {
		digest = append(digest, cwCall{args: []string{"digest", "write", "-"}, stdin: cwDigest(i)})
	}
	for i := 0; i < cwStatusCalls; i++ {
		st := "paused"
		if i%2 == 1 {
			st = "in_progress"
		}
		status = append(status, cwCall{args: []string{"status", "set", st}})
	}
	var all []cwCall
	for len(link)+len(phase)+len(digest)+len(status) > 0 {
		for _, q := range []*[]cwCall{&link, &phase, &link, &digest, &status} {
			if len(*q) > 0 {
				all = append(all, (*q)[0])
				*q = (*q)[1:]
			}
		}
	}
	return all
}

func cwPRURL(i int) string { return fmt.Sprintf("https://example.com/pr/%d", i) }

// cwDigest is the i-th valid five-bullet digest; each one is distinct.
func cwDigest(i int) string {
	return fmt.Sprintf("- Done: concurrent writer %d finished its step\n"+
		"- Next: phase-%d.md\n"+
		"- Open decisions: none\n"+
		"- Artifacts: notes-%d.md\n"+
		"- Suite: unknown\n", i, i, i)
}

func cwSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// cwResult is how one process ended.
type cwResult struct {
	code           int
	stdout, stderr string
}

// cwRunTogether starts one process per cwCall, all released at once, and waits
// for every one of them.
func cwRunTogether(t *testing.T, r *clitest.Rig, calls []cwCall) []cwResult {
	t.Helper()
	results := make([]cwResult, len(calls))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i, c := range calls {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := r.Command(ctx, c.stdin, c.args...)
			cmd.Env = r.Env.With("ORC_LOCK_TIMEOUT=60s")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			ready.Done()
			<-start
			err := cmd.Run()
			results[i] = cwResult{code: cwExitCode(err), stdout: out.String(), stderr: errOut.String()}
			if results[i].code < 0 {
				results[i].stderr += err.Error()
			}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return results
}

// cwCheckJournal asserts that the journal holds init plus exactly one line per
// cwCall that changed the session, in a consistent order: every link-pr and
// every digest (all distinct) once, and phase and status entries that each
// changed the value left by the entry before (a no-op is not journaled), the
// last of which is the session's current value. The chain is checked by
// verify.
func cwCheckJournal(t *testing.T, r *clitest.Rig, s cwSession, calls []cwCall) {
	t.Helper()
	repo := r.Dir
	code, plain, errOut := r.Exec("", "log")
	if code != 0 {
		t.Fatalf("log: exit %d, stderr %q", code, errOut)
	}
	code, jsonOut, errOut := r.Exec("", "log", "--json")
	if code != 0 {
		t.Fatalf("log --json: exit %d, stderr %q", code, errOut)
	}
	var entries []cwJournalLine
	for n, line := range strings.Split(strings.TrimSpace(jsonOut), "\n") {
		var e cwJournalLine
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log --json line %d: %v: %s", n+1, err, line)
		}
		entries = append(entries, e)
	}
	if plainLines := strings.Count(plain, "\n"); plainLines != len(entries) {
		t.Errorf("log prints %d lines, log --json %d", plainLines, len(entries))
	}

	phaseCount := map[string]int{} // calls per value
	statusCount := map[string]int{}
	digests := map[string]string{} // sha256 → text
	for _, c := range calls {
		switch c.args[0] {
		case "phase":
			phaseCount[c.args[2]]++
		case "status":
			statusCount[c.args[2]]++
		case "digest":
			digests[cwSum(c.stdin)] = c.stdin
		}
	}

	byVerb := map[string]int{}
	phase, status, lastDigest := "1", "in_progress", ""
	links := map[string]int{}
	for i, e := range entries {
		if e.Seq != i+1 {
			t.Errorf("journal line %d has seq %d", i+1, e.Seq)
		}
		byVerb[e.Verb]++
		switch e.Verb {
		case "init":
			if i != 0 {
				t.Errorf("init journaled at seq %d", e.Seq)
			}
		case "link-pr":
			links[e.Args.URL]++
		case "phase set":
			if e.Args.Phase == phase {
				t.Errorf("seq %d: phase set %s journaled while the phase was already %s", e.Seq, e.Args.Phase, phase)
			}
			phase = e.Args.Phase
			phaseCount[phase]--
		case "status set":
			if e.Args.Status == status {
				t.Errorf("seq %d: status set %s journaled while the status was already %s", e.Seq, e.Args.Status, status)
			}
			status = e.Args.Status
			statusCount[status]--
		case "digest write":
			if _, ok := digests[e.Args.SHA256]; !ok {
				t.Errorf("seq %d: digest %s journaled but not written (or twice)", e.Seq, e.Args.SHA256)
			}
			delete(digests, e.Args.SHA256)
			lastDigest = e.Args.SHA256
		default:
			t.Errorf("seq %d: unexpected verb %q", e.Seq, e.Verb)
		}
	}
	for v, n := range phaseCount {
		if n < 0 {
			t.Errorf("phase set %s journaled %d more times than called", v, -n)
		}
	}
	for v, n := range statusCount {
		if n < 0 {
			t.Errorf("status set %s journaled %d more times than called", v, -n)
		}
	}
	if len(digests) != 0 {
		t.Errorf("%d digest writes are missing from the journal", len(digests))
	}
	if len(links) != cwLinkCalls {
		t.Errorf("journal has %d distinct link-pr URLs, want %d", len(links), cwLinkCalls)
	}
	// Phases 2..9 are each passed once and differ from the initial 1, so
	// each changes the session; only the two "phase set 1" calls can be
	// no-ops. Every other bound follows from the replay above.
	want := 1 + cwLinkCalls + cwDigestCalls + byVerb["phase set"] + byVerb["status set"]
	if len(entries) != want || byVerb["init"] != 1 || byVerb["link-pr"] != cwLinkCalls || byVerb["digest write"] != cwDigestCalls {
		t.Errorf("journal has %d lines (%v), want %d", len(entries), byVerb, want)
	}
	t.Logf("journal: %d lines %v", len(entries), byVerb)
	if p := byVerb["phase set"]; p < 8 || p > cwPhaseCalls {
		t.Errorf("journal has %d phase set lines, want 8..%d", p, cwPhaseCalls)
	}
	if st := byVerb["status set"]; st < 1 || st > cwStatusCalls {
		t.Errorf("journal has %d status set lines, want 1..%d", st, cwStatusCalls)
	}
	if len(entries) < 1+cwLinkCalls {
		t.Errorf("journal has %d lines, want at least %d", len(entries), 1+cwLinkCalls)
	}
	if got := strconv.Itoa(s.Phase); got != phase {
		t.Errorf("session phase %s, but the journal's last phase set says %s", got, phase)
	}
	if s.Status != status {
		t.Errorf("session status %s, but the journal's last status set says %s", s.Status, status)
	}
	body, err := os.ReadFile(filepath.Join(repo, ".orc", "main", "files", "checkpoint.md"))
	if err != nil {
		t.Fatal(err)
	}
	if lastDigest == "" || !bytes.Contains(body, []byte("## Resume digest\n"+cwDigestByHash(calls, lastDigest))) {
		t.Errorf("checkpoint.md does not hold the last journaled digest %s:\n%s", lastDigest, body)
	}
}

func cwDigestByHash(calls []cwCall, h string) string {
	for _, c := range calls {
		if c.args[0] == "digest" && cwSum(c.stdin) == h {
			return c.stdin
		}
	}
	return "\x00(none)"
}

// cwCheckFrontmatter asserts that checkpoint.md's frontmatter mirrors the
// registry entry.
func cwCheckFrontmatter(t *testing.T, path string, s cwSession) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "---\n") {
		t.Fatalf("checkpoint.md has no frontmatter:\n%s", text)
	}
	head, _, ok := strings.Cut(text[4:], "\n---\n")
	if !ok {
		t.Fatalf("checkpoint.md frontmatter is not closed:\n%s", text)
	}
	fm := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			t.Errorf("frontmatter line %q is not key: value", line)
			continue
		}
		if _, dup := fm[k]; dup {
			t.Errorf("frontmatter has %s twice", k)
		}
		fm[k] = strings.Trim(v, `"`)
	}
	want := map[string]string{
		"schema":      "1",
		"command":     s.Command,
		"branch":      s.SessionID,
		"gitBranch":   s.GitBranch,
		"phase":       strconv.Itoa(s.Phase),
		"totalPhases": strconv.Itoa(s.TotalPhases),
		"status":      s.Status,
		"updatedAt":   s.UpdatedAt,
	}
	for k, v := range want {
		if fm[k] != v {
			t.Errorf("frontmatter %s = %q, registry says %q", k, fm[k], v)
		}
	}
}

// cwCheckNoTempFiles asserts that no atomic-write temp file was left behind.
func cwCheckNoTempFiles(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
			t.Errorf("temp file left behind: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// cwSession is the part of a registry entry the test reads.
type cwSession struct {
	SessionID   string `json:"sessionId"`
	Command     string `json:"command"`
	GitBranch   string `json:"gitBranch"`
	Status      string `json:"status"`
	Phase       int    `json:"phase"`
	TotalPhases int    `json:"totalPhases"`
	UpdatedAt   string `json:"updatedAt"`
	LinkedPRs   []struct {
		Repo   string `json:"repo"`
		URL    string `json:"url"`
		Number *int   `json:"number"`
	} `json:"linkedPRs"`
}

type cwRegistry struct {
	Schema   int         `json:"schema"`
	Sessions []cwSession `json:"sessions"`
}

type cwJournalLine struct {
	Seq  int    `json:"seq"`
	Verb string `json:"verb"`
	Args struct {
		URL    string `json:"url"`
		Phase  string `json:"phase"`
		Status string `json:"status"`
		SHA256 string `json:"sha256"`
	} `json:"args"`
}

func cwReadRegistry(t *testing.T, path string) cwRegistry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var reg cwRegistry
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatalf("orc.json does not parse: %v\n%s", err, data)
	}
	if reg.Schema != 1 {
		t.Errorf("orc.json schema %d, want 1", reg.Schema)
	}
	return reg
}

// cwExitCode is the process's exit code, or -1 when it did not exit normally.
func cwExitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
