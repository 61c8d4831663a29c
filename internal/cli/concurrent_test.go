package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
)

// TestConcurrentRunsInProcess runs the CLI from many goroutines of one
// process at once, each run with its own Process: writers of one session
// contending for its lock, readers (verify, resume, current, line, log)
// beside them (not the statusline: a cold render starts its refresher, the
// program running, which here is this test binary), and a second repository's writer. Tests run verbs in
// process side by side (the scenarios, fault injection), so no state may
// be shared between runs; under the race detector (CI's race step) this
// is where such sharing shows. Every acknowledged write must land once:
// each decision and progress entry is there, the claims are of distinct
// slices, and verify is clean afterwards.
func TestConcurrentRunsInProcess(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	const writers, rounds = 4, 5
	home := t.TempDir()
	env := environ.List(clitest.HermeticEnv(home, "ORC_LOCK_TIMEOUT=60s"))
	repo := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "commit", "-q", "--allow-empty", "-m", "base"}} {
			cmd := exec.Command("git", args...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
		return dir
	}
	run := func(dir, actor, stdin string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cli.Run(cli.Process{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
			Environ: env.With("ORC_ACTOR=" + actor), Dir: dir})
		return code, out.String(), errb.String()
	}
	a, b := repo("a"), repo("b")
	plan := `{"slices": [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}, {"id": 3, "title": "three"}, {"id": 4, "title": "four"}]}`
	for _, args := range [][]string{{"init", "--command", "flow", "--total-phases", "9"}, {"slice", "init", "-"}} {
		if code, _, stderr := run(a, "setup", plan, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	claimed := map[string]string{} // slice → agent
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprintf("agent-%d", w)
			for i := 0; i < rounds; i++ {
				for _, c := range []struct {
					stdin string
					args  []string
				}{
					{"", []string{"decision", "set", fmt.Sprintf("k%d-%d", w, i), "v", "--provenance", "asked"}},
					{fmt.Sprintf("note %d %d\n", w, i), []string{"progress", "append", "-", "--title", fmt.Sprintf("t%d-%d", w, i)}},
					{"", []string{"phase", "set", fmt.Sprint(1 + (w+i)%9)}},
				} {
					if code, _, stderr := run(a, agent, c.stdin, c.args...); code != 0 {
						fail("%s %v: exit %d: %s", agent, c.args, code, stderr)
					}
				}
			}
			code, stdout, stderr := run(a, agent, "", "slice", "claim", "--agent", agent, "--json")
			if code != 0 {
				fail("%s slice claim: exit %d: %s", agent, code, stderr)
				return
			}
			var slice struct{ ID json.RawMessage }
			if err := json.Unmarshal([]byte(stdout), &slice); err != nil || len(slice.ID) == 0 {
				fail("%s slice claim printed %q", agent, stdout)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if other, ok := claimed[string(slice.ID)]; ok {
				failures = append(failures, fmt.Sprintf("%s and %s both claimed slice %s", other, agent, slice.ID))
			}
			claimed[string(slice.ID)] = agent
		}()
	}
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				for _, args := range [][]string{{"verify"}, {"resume"}, {"current"}, {"line"}, {"log"}} {
					if code, _, stderr := run(a, "reader", "", args...); code != 0 && args[0] != "verify" {
						fail("reader %v: exit %d: %s", args, code, stderr)
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if code, _, stderr := run(b, "other", "", "init", "--command", "flow", "--total-phases", "3"); code != 0 {
			fail("init in b: exit %d: %s", code, stderr)
			return
		}
		for i := 0; i < rounds; i++ {
			if code, _, stderr := run(b, "other", "", "phase", "set", fmt.Sprint(1+i%3)); code != 0 {
				fail("phase set in b: exit %d: %s", code, stderr)
			}
		}
	}()
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}

	decisions, err := os.ReadFile(filepath.Join(a, ".orc", "main", "files", "decisions.json"))
	if err != nil {
		t.Fatal(err)
	}
	progress, err := os.ReadFile(filepath.Join(a, ".orc", "main", "files", "progress.md"))
	if err != nil {
		t.Fatal(err)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < rounds; i++ {
			if key := fmt.Sprintf(`"k%d-%d"`, w, i); !bytes.Contains(decisions, []byte(key)) {
				t.Errorf("decision %s is missing", key)
			}
			if note := fmt.Sprintf("note %d %d", w, i); !bytes.Contains(progress, []byte(note)) {
				t.Errorf("progress entry %q is missing", note)
			}
		}
	}
	if len(claimed) != writers {
		t.Errorf("%d distinct claims, want %d: %v", len(claimed), writers, claimed)
	}
	for _, dir := range []string{a, b} {
		if code, stdout, stderr := run(dir, "check", "", "verify"); code != 0 {
			t.Errorf("verify in %s: exit %d:\n%s%s", filepath.Base(dir), code, stdout, stderr)
		}
	}
}
