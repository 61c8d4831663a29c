package proctest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/clitest"
)

// worktreeAgentScript is one implementer agent in a bound worktree, as a
// real process that names neither the session nor the agent on the
// command line: the binding selects the session, $ORC_ACTOR is the agent.
// It claims a slice with a short lease and moves it red, green and
// committed, until claim says every slice is done; when another agent
// took its slice (its lease ended first) it claims again. With a fifth
// argument it is the agent that dies holding its slice.
const worktreeAgentScript = `export ORC_ACTOR=$1
lease=$2 sha=$3 log=$4 hold=$5
while :; do
  if id=$("$ORC" slice claim --lease "$lease" 2>"$log.err"); then
    echo "claim $id" >>"$log"
    "$ORC" slice set "$id" --status red 2>>"$log.err" || { [ $? -eq 1 ] && continue; exit 11; }
    if [ -n "$hold" ]; then
      echo "$id" >"$hold.tmp" && mv "$hold.tmp" "$hold"
      exec sleep 600
    fi
    "$ORC" slice set "$id" --status green 2>>"$log.err" || { [ $? -eq 1 ] && continue; exit 12; }
    "$ORC" slice set "$id" --status committed --commit "$sha" 2>>"$log.err" || { [ $? -eq 1 ] && continue; exit 13; }
    echo "commit $id" >>"$log"
  else
    rc=$?
    [ "$rc" -eq 1 ] || { cat "$log.err" >&2; exit 20; }
    grep -q 'slices are done$' "$log.err" && exit 0
    sleep 0.5
  fi
done
`

// TestWorktreeClaimRace: 20 agents in 5 bound worktrees (4 each) work a
// ledger of 10 slices with 2-second leases, as real processes with no
// flag; one of them is SIGKILLed while it holds a slice. No slice ever
// has two live claims (a slice is claimed again only after the lease
// before ended, and then it names the holder it took it from), the dead
// agent's slice is taken only after its lease, every slice is committed
// exactly once, nothing is lost from the journal, and verify is clean.
func TestWorktreeClaimRace(t *testing.T) {
	const (
		slices    = 10
		trees     = 5
		perTree   = 4
		lease     = 2 * time.Second
		leaseFlag = "2s"
	)
	r := newRaceRepoWithin(t, claimLoopDeadline)
	r.claimPlan(slices, 0)
	sha := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	dirs := make([]string, trees)
	for k := range dirs {
		dirs[k] = filepath.Join(filepath.Dir(r.Dir), "w"+strconv.Itoa(k))
		r.mustRun("worktree", "add", dirs[k], "--detach")
	}
	script := filepath.Join(r.tmp, "agent.sh")
	if err := os.WriteFile(script, []byte(worktreeAgentScript), 0o755); err != nil {
		t.Fatal(err)
	}
	env := r.Env.With("ORC=" + clitest.Binary(t))
	agent := func(tree int, name, hold string) *exec.Cmd {
		cmd := exec.CommandContext(r.ctx, "sh", script, name, leaseFlag, sha, filepath.Join(r.tmp, name+".log"), hold)
		cmd.Dir, cmd.Env = dirs[tree], env
		return cmd
	}

	// The victim claims first and is killed holding its slice.
	hold := filepath.Join(r.tmp, "victim.slice")
	victim := agent(0, "w0-victim", hold)
	victimSlice := killHolder(t, r.ctx, victim, hold)

	// The other 19, released together.
	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	failed := map[string]string{}
	for k := 0; k < trees; k++ {
		for j := 0; j < perTree; j++ {
			if k == 0 && j == 0 {
				continue // the victim's place
			}
			name := "w" + strconv.Itoa(k) + "-a" + strconv.Itoa(j)
			cmd := agent(k, name, "")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if err := cmd.Run(); err != nil {
					mu.Lock()
					failed[name] = err.Error() + ": " + stderr.String()
					mu.Unlock()
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	for name, why := range failed {
		logData, _ := os.ReadFile(filepath.Join(r.tmp, name+".log"))
		errData, _ := os.ReadFile(filepath.Join(r.tmp, name+".log.err"))
		t.Errorf("%s: %s\nlog:\n%s\nlast stderr:\n%s", name, why, logData, errData)
	}
	if t.Failed() {
		t.FailNow()
	}

	// Every slice committed, no claim left.
	for _, s := range r.readLedgerFile().Slices {
		if s.Status != "committed" || s.Commit != sha || s.ClaimedBy != "" {
			t.Errorf("slice %d: %+v", s.ID, s)
		}
	}
	// The journal: claims of one slice never overlap (each next one starts
	// at or after the lease before it ends, and names whom it took the
	// slice from); each slice is committed once; seq runs 1..n.
	type claim struct {
		at, until, agent, took string
	}
	claims := map[string][]claim{}
	commits := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.mustRun("log", "--json").stdout), "\n") {
		var e struct {
			At   string
			Verb string
			Args struct{ ID, Agent, Until, Took, To string }
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		switch {
		case e.Verb == "slice claim":
			claims[e.Args.ID] = append(claims[e.Args.ID], claim{e.At, e.Args.Until, e.Args.Agent, e.Args.Took})
		case e.Verb == "slice set" && e.Args.To == "committed":
			commits[e.Args.ID]++
		}
	}
	if len(claims) != slices {
		t.Errorf("%d slices were claimed, want %d", len(claims), slices)
	}
	for id, list := range claims {
		sort.SliceStable(list, func(i, j int) bool { return list[i].at < list[j].at })
		for i := 1; i < len(list); i++ {
			if list[i].at < list[i-1].until || list[i].took != list[i-1].agent {
				t.Errorf("slice %s claimed by %s at %s (took %q) while %s held it until %s", id, list[i].agent, list[i].at, list[i].took, list[i-1].agent, list[i-1].until)
			}
		}
		if commits[id] != 1 {
			t.Errorf("slice %s moved to committed %d times", id, commits[id])
		}
	}
	v := claims[victimSlice]
	if len(v) < 2 || v[0].agent != "w0-victim" || v[1].took != "w0-victim" {
		t.Errorf("the victim's slice %s: claims %+v; want it taken from the victim after its lease", victimSlice, v)
	}
	n := r.journalVerbs()["slice claim"]
	if n < slices+1 {
		t.Errorf("%d claims journaled, want at least %d", n, slices+1)
	}
	// Every worktree is still bound, with no claim left.
	rows := r.mustRun("worktree", "list").stdout
	if strings.Count(rows, "\tmain\t-\t-\n") != trees {
		t.Errorf("worktree list:\n%s", rows)
	}
	r.verifyClean()
	t.Logf("the victim held slice %s; %d claims in all (a lease of %v can end under load before its slice is done: then it is taken, never shared)", victimSlice, n, lease)
}
