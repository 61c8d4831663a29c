package proctest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
)

// The tests in this file are docs/protocol.md §7's claims under real concurrency:
// separate orc-state processes, each an agent, claiming slices of one
// ledger at once, and one agent killed while it holds a slice.

// claimPlan writes a ledger of n slices outside the worktree and installs
// it; slice k depends on slice k-dep when dep > 0 and k > dep.
func (r *raceRepo) claimPlan(n, dep int) {
	r.t.Helper()
	type planSlice struct {
		ID        int    `json:"id"`
		Title     string `json:"title"`
		DependsOn []int  `json:"dependsOn,omitempty"`
	}
	var plan struct {
		Slices []planSlice `json:"slices"`
	}
	for k := 1; k <= n; k++ {
		s := planSlice{ID: k, Title: fmt.Sprintf("slice %d", k)}
		if dep > 0 && k > dep {
			s.DependsOn = []int{k - dep}
		}
		plan.Slices = append(plan.Slices, s)
	}
	data, err := json.Marshal(plan)
	if err != nil {
		r.t.Fatal(err)
	}
	file := filepath.Join(r.tmp, "plan.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.mustRun("slice", "init", file)
}

// ledgerFile is slices.json decoded strictly with only the fields these
// tests expect: an unknown or mistyped field fails the test.
type ledgerFile struct {
	Slices []struct {
		ID           int    `json:"id"`
		Title        string `json:"title"`
		DependsOn    []int  `json:"dependsOn"`
		Status       string `json:"status"`
		Attempts     int    `json:"attempts"`
		Commit       string `json:"commit"`
		ClaimedBy    string `json:"claimedBy"`
		ClaimedUntil string `json:"claimedUntil"`
	} `json:"slices"`
}

func (r *raceRepo) readLedgerFile() ledgerFile {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.sess, "slices.json"))
	if err != nil {
		r.t.Fatal(err)
	}
	var l ledgerFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		r.t.Fatalf("slices.json: %v\n%s", err, data)
	}
	return l
}

// journalEntry is one line of `orc-state log --json`.
type journalEntry struct {
	Seq  int    `json:"seq"`
	Verb string `json:"verb"`
	Args struct {
		ID     string `json:"id"`
		Agent  string `json:"agent"`
		Took   string `json:"took"`
		To     string `json:"to"`
		Forced bool   `json:"forced"`
	} `json:"args"`
}

func (r *raceRepo) journal() []journalEntry {
	r.t.Helper()
	var out []journalEntry
	sc := bufio.NewScanner(strings.NewReader(r.mustRun("log", "--json").stdout))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var e journalEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			r.t.Fatalf("journal line is not JSON: %v: %s", err, sc.Text())
		}
		out = append(out, e)
	}
	return out
}

// TestConcurrentSliceClaim: 20 agents claim at once from a ledger of 10
// ready slices. The lock makes claims atomic: 10 agents get 10 distinct
// slices, the other 10 exit 1 saying every slice is claimed, the ledger
// records exactly the winners, and the journal has one line per claim.
func TestConcurrentSliceClaim(t *testing.T) {
	const slices = raceWriters / 2
	r := newRaceRepo(t)
	r.claimPlan(slices, 0)

	argv := make([][]string, raceWriters)
	for i := range argv {
		argv[i] = []string{"slice", "claim", "--agent", "agent-" + strconv.Itoa(i), "--lease", "10m"}
	}
	results := r.race(argv)

	holder := map[string]string{} // slice id → agent
	refused := 0
	for i, res := range results {
		agent := "agent-" + strconv.Itoa(i)
		switch res.code {
		case 0:
			id := strings.TrimSuffix(res.stdout, "\n")
			if prev, ok := holder[id]; ok {
				t.Errorf("slice %s claimed by both %s and %s", id, prev, agent)
			}
			holder[id] = agent
			if res.stderr != "" {
				t.Errorf("%s claimed %s with stderr %q", agent, id, res.stderr)
			}
		case 1:
			refused++
			if res.stdout != "" || !strings.HasPrefix(res.stderr, fmt.Sprintf("orc-state slice claim: nothing to claim (0 of %d slices done); claimed by others: ", slices)) ||
				!strings.Contains(res.stderr, "\nhint: retry after ") {
				t.Errorf("%s: exit 1 with stdout %q, stderr %q", agent, res.stdout, res.stderr)
			}
		default:
			t.Errorf("%s: exit %d\nstderr: %s", agent, res.code, res.stderr)
		}
	}
	if len(holder) != slices || refused != raceWriters-slices {
		t.Fatalf("%d slices claimed, %d agents refused; want %d and %d", len(holder), refused, slices, raceWriters-slices)
	}

	l := r.readLedgerFile()
	for _, s := range l.Slices {
		id := strconv.Itoa(s.ID)
		if s.Status != "" || s.ClaimedBy == "" || s.ClaimedBy != holder[id] || s.ClaimedUntil == "" {
			t.Errorf("slice %s in the ledger: %+v; its claimant printed %q", id, s, holder[id])
		}
	}
	claims := 0
	for _, e := range r.journal() {
		if e.Verb == "slice claim" {
			claims++
			if holder[e.Args.ID] != e.Args.Agent || e.Args.Took != "" {
				t.Errorf("journal: %s claimed %s (took %q); the ledger says %s", e.Args.Agent, e.Args.ID, e.Args.Took, holder[e.Args.ID])
			}
		}
	}
	if claims != slices {
		t.Errorf("journal has %d slice claim lines, want %d", claims, slices)
	}
	if v := r.journalVerbs(); v["slice claim"] != slices {
		t.Errorf("journal verbs: %v", v)
	}
	if res := r.mustRun("line").stdout; !strings.Contains(res, fmt.Sprintf(`"slicesDone":0,"slicesTotal":%d,"slicesClaimed":%d,`, slices, slices)) {
		t.Errorf("line: %s", res)
	}
	r.noStrayFiles("checkpoint.md", "journal.jsonl", "slices.json")
	r.verifyClean()
}

// agentScript is one implementer agent as a real process: it claims a
// slice, works it (red, a pause, green, committed) and claims again until
// claim says every slice is done; on "claimed" or "blocked" it waits and
// retries. With a fifth argument it is the agent that dies: it claims,
// moves its slice to red, writes the slice id to that file and then
// sleeps, holding the claim, until it is killed.
const agentScript = `name=$1 lease=$2 sha=$3 log=$4 hold=$5
while :; do
  if id=$("$ORC" slice claim --agent "$name" --lease "$lease" 2>"$log.err"); then
    echo "claim $id" >>"$log"
    "$ORC" slice set "$id" --status red --agent "$name" || exit 11
    if [ -n "$hold" ]; then
      echo "$id" >"$hold.tmp" && mv "$hold.tmp" "$hold"
      exec sleep 600
    fi
    sleep 0.05
    "$ORC" slice set "$id" --status green --agent "$name" || exit 12
    "$ORC" slice set "$id" --status committed --commit "$sha" --agent "$name" || exit 13
    echo "commit $id" >>"$log"
  else
    rc=$?
    [ "$rc" -eq 1 ] || { cat "$log.err" >&2; exit 20; }
    grep -q 'slices are done$' "$log.err" && exit 0
    sleep 0.5
  fi
done
`

// claimLoopDeadline bounds TestConcurrentClaimLoop: about 60 processes
// one after another per agent, slower still under the race detector.
const claimLoopDeadline = 3 * time.Minute

// TestConcurrentClaimLoop: agents work a ledger to the end in parallel,
// one of them killed (SIGKILL) while it holds a slice. Its slice is taken
// by another agent once its 2-second lease ends; every slice ends
// committed exactly once, by one agent; the journal chain is intact and
// verify finds nothing.
func TestConcurrentClaimLoop(t *testing.T) {
	const (
		slices = 8
		agents = 3
	)
	r := newRaceRepoWithin(t, claimLoopDeadline)
	r.claimPlan(slices, 4) // 5..8 wait on 1..4
	script := filepath.Join(r.tmp, "agent.sh")
	if err := os.WriteFile(script, []byte(agentScript), 0o755); err != nil {
		t.Fatal(err)
	}
	sha := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	env := r.Env.With("ORC=" + clitest.Binary(t))
	agent := func(name, lease, hold string) *exec.Cmd {
		cmd := exec.CommandContext(r.ctx, "sh", script, name, lease, sha, filepath.Join(r.tmp, name+".log"), hold)
		cmd.Dir, cmd.Env = r.Dir, env
		return cmd
	}

	// The victim claims first, starts its slice and is killed holding it.
	hold := filepath.Join(r.tmp, "victim.slice")
	victim := agent("victim", "2s", hold)
	victimSlice := killHolder(t, r.ctx, victim, hold)
	killedAt := time.Now()

	// The others work the ledger to the end; their leases outlive the test.
	var wg sync.WaitGroup
	errs := make([]error, agents)
	stderr := make([]strings.Builder, agents)
	for i := 0; i < agents; i++ {
		cmd := agent("agent-"+strconv.Itoa(i), "10m", "")
		cmd.Stderr = &stderr[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = cmd.Run()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("agent-%d: %v\n%s", i, err, stderr[i].String())
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Every slice is committed, at HEAD, with no claim left.
	for _, s := range r.readLedgerFile().Slices {
		if s.Status != "committed" || s.Commit != sha || s.ClaimedBy != "" || s.ClaimedUntil != "" {
			t.Errorf("slice %d: %+v", s.ID, s)
		}
	}

	// The agents' own logs: each slice committed once, never by the victim.
	committedBy := map[string][]string{}
	for i := 0; i < agents; i++ {
		name := "agent-" + strconv.Itoa(i)
		data, err := os.ReadFile(filepath.Join(r.tmp, name+".log"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if id, ok := strings.CutPrefix(line, "commit "); ok {
				committedBy[id] = append(committedBy[id], name)
			}
		}
	}
	if len(committedBy) != slices {
		t.Errorf("agents committed %d distinct slices, want %d: %v", len(committedBy), slices, committedBy)
	}
	for id, who := range committedBy {
		if len(who) != 1 {
			t.Errorf("slice %s committed by %v", id, who)
		}
	}

	// The journal: one claim per slice, two for the victim's (the second
	// taking it from the victim), one move to committed per slice, and the
	// victim's slice committed by the agent that took it.
	claims := map[string][]journalEntry{}
	commits := map[string][]journalEntry{}
	for _, e := range r.journal() {
		switch {
		case e.Verb == "slice claim":
			claims[e.Args.ID] = append(claims[e.Args.ID], e)
		case e.Verb == "slice set" && e.Args.To == "committed":
			commits[e.Args.ID] = append(commits[e.Args.ID], e)
		case e.Verb == "slice set" && e.Args.Forced:
			t.Errorf("a forced slice set: %+v", e)
		}
	}
	for k := 1; k <= slices; k++ {
		id := strconv.Itoa(k)
		if len(commits[id]) != 1 {
			t.Errorf("slice %s moved to committed %d times in the journal", id, len(commits[id]))
		}
		want := 1
		if id == victimSlice {
			want = 2
		}
		if len(claims[id]) != want {
			t.Errorf("slice %s claimed %d times, want %d: %+v", id, len(claims[id]), want, claims[id])
		}
	}
	taken := claims[victimSlice]
	if len(taken) == 2 {
		if taken[0].Args.Agent != "victim" || taken[1].Args.Took != "victim" || taken[1].Args.Agent == "victim" {
			t.Errorf("the victim's slice %s: claims %+v", victimSlice, taken)
		}
		if who := committedBy[victimSlice]; len(who) != 1 || who[0] != taken[1].Args.Agent {
			t.Errorf("the victim's slice %s was taken by %s but committed by %v", victimSlice, taken[1].Args.Agent, who)
		}
	}
	if d := time.Since(killedAt); d < 2*time.Second {
		t.Errorf("the ledger was done %v after the kill, before the victim's 2s lease could end", d)
	}
	t.Logf("victim held slice %s; done %v after the kill", victimSlice, time.Since(killedAt).Round(time.Millisecond))
	r.journalVerbs()
	r.noStrayFiles("checkpoint.md", "journal.jsonl", "slices.json")
	r.verifyClean()
}

// killHolder starts victim, an agent that writes the id of the slice it
// claimed to the file hold, waits for that id, SIGKILLs the agent holding
// the claim and returns the id.
func killHolder(t *testing.T, ctx context.Context, victim *exec.Cmd, hold string) string {
	t.Helper()
	var victimErr strings.Builder
	victim.Stderr = &victimErr
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if data, err := os.ReadFile(hold); err == nil {
			if id := strings.TrimSpace(string(data)); id != "" {
				if err := victim.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				if err := victim.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
					t.Fatalf("victim: %v", err)
				}
				return id
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the victim never claimed a slice: %s", victimErr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
