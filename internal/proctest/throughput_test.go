package proctest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSoakThroughput measures what the lock's writers acknowledge per
// second: 50 writers, each starting orc-state processes one after
// another, mixing progress append, phase set, slice claim (with the
// release of what it claimed) and digest write, then the same without
// digest write (which archives the digest it replaces). It
// reports mutations/s for both and asserts nothing acknowledged is lost:
// every progress marker in progress.md exactly once, every claim released,
// one journal line per acknowledged mutation, verify and doctor clean.
// The target (docs/reliability.md) is read from the report, not asserted:
// a shared machine's load moves it.
func TestSoakThroughput(t *testing.T) {
	budget := 4 * time.Second
	if testing.Short() {
		budget = 2 * time.Second
	}
	for _, mix := range []struct {
		name  string
		kinds []string
	}{
		{"with digest write", []string{"progress append", "phase set", "slice claim", "digest write"}},
		{"without digest write", []string{"progress append", "phase set", "slice claim"}},
	} {
		t.Run(mix.name, func(t *testing.T) {
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
			r.must(relDigest("setup", 0), "digest", "write", "-")
			setupLines := r.journalLines()

			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			began := time.Now()
			var mu sync.Mutex
			acked, markers, counts := 0, []string{}, map[string]int{}
			var wg sync.WaitGroup
			for i := range soakWriters {
				wg.Add(1)
				go func() {
					defer wg.Done()
					agent := fmt.Sprintf("w%d", i)
					for n := 0; ctx.Err() == nil; n++ {
						kind := mix.kinds[(i+n)%len(mix.kinds)]
						var res relRun
						done := 1
						marker := ""
						switch kind {
						case "progress append":
							marker = fmt.Sprintf("<<rate:%s:%d>>", agent, n)
							res = r.run("did "+marker+"\n", "progress", "append", "-", "--title", agent)
						case "phase set":
							res = r.run("", "phase", "set", strconv.Itoa(1+(i+n)%9), "--label", fmt.Sprintf("%s-%d", agent, n))
						case "digest write":
							res = r.run(relDigest(agent, n), "digest", "write", "-")
						case "slice claim":
							res = r.run("", "slice", "claim", "--agent", agent)
							if res.code == 0 {
								id := strings.TrimSpace(res.stdout)
								if rel := r.run("", "slice", "release", id, "--agent", agent); rel.code != 0 {
									t.Errorf("slice release %s --agent %s: exit %d: %s", id, agent, rel.code, rel.stderr)
								} else {
									done = 2
								}
							}
						}
						if res.code != 0 {
							t.Errorf("%s: exit %d: %s", strings.Join(res.args, " "), res.code, res.stderr)
							return
						}
						mu.Lock()
						acked += done
						counts[kind] += done
						if marker != "" {
							markers = append(markers, marker)
						}
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			ran := time.Since(began)
			t.Logf("throughput %s: %d writers, %d acknowledged mutations in %v: %.1f mutations/s (%s)",
				mix.name, soakWriters, acked, ran.Round(time.Millisecond), float64(acked)/ran.Seconds(), relCounts(counts))
			if t.Failed() {
				return
			}
			progress, err := os.ReadFile(filepath.Join(r.Dir, ".orc", "main", "files", "progress.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range markers {
				if n := strings.Count(string(progress), m); n != 1 {
					t.Errorf("progress marker %s appears %d times", m, n)
				}
			}
			if got := r.journalLines() - setupLines; got != acked {
				t.Errorf("journal: %d new lines for %d acknowledged mutations", got, acked)
			}
			for _, verb := range []string{"verify", "doctor"} {
				if f := r.findings(verb); len(f) > 0 {
					t.Errorf("%s: %v", verb, f)
				}
			}
			statuses, err := r.sliceStatuses()
			if err != nil {
				t.Fatal(err)
			}
			if n := len(statuses); n != soakWriters {
				t.Errorf("%d slices, want %d", n, soakWriters)
			}
		})
	}
}
