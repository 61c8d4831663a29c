package proctest

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestArchivingWritersNeverCollide: 50 real processes at once, mixing
// progress append, phase set, decision set and digest write (4 runs each,
// --lock-timeout 30s), in a repository, so that many digests are replaced,
// and archived, in the same second: every run succeeds (none loses its
// write to an archive name another writer took), every replaced digest
// has an archive of its own, and verify and doctor find nothing.
func TestArchivingWritersNeverCollide(t *testing.T) {
	r := newRelRig(t, "30s")
	r.must(relDigest("setup", 0), "digest", "write", "-")
	const writers, runs = 50, 4
	kinds := []string{"progress append", "phase set", "decision set", "digest write"}
	errs := make([][]string, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kind := kinds[w%len(kinds)]
			for n := range runs {
				var args []string
				stdin := ""
				switch kind {
				case "progress append":
					args, stdin = []string{"progress", "append", "-", "--title", fmt.Sprintf("w%d", w)}, fmt.Sprintf("step %d of w%d\n", n, w)
				case "phase set":
					args = []string{"phase", "set", strconv.Itoa(1 + (w+n)%9)}
				case "decision set":
					args = []string{"decision", "set", fmt.Sprintf("w%d_%d", w, n), "v", "--provenance", "flag"}
				case "digest write":
					args, stdin = []string{"digest", "write", "-"}, relDigest(fmt.Sprintf("w%d", w), n)
				}
				args = append(args, "--lock-timeout", "30s")
				if res := r.run(stdin, args...); res.code != 0 {
					errs[w] = append(errs[w], fmt.Sprintf("orc-state %s: exit %d: %s", strings.Join(args, " "), res.code, res.stderr))
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		for _, msg := range e {
			t.Error(msg)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	digests := 0
	for w := range writers {
		if kinds[w%len(kinds)] == "digest write" {
			digests += runs
		}
	}
	// Each digest write replaced a different digest: one archive each.
	var list []string
	for _, line := range strings.Split(strings.TrimSpace(r.must("", "archive", "list")), "\n") {
		if f := strings.Split(line, "\t"); len(f) > 2 && f[2] == "digest" {
			list = append(list, f[len(f)-1])
		}
	}
	seen := map[string]bool{}
	for _, name := range list {
		if seen[name] {
			t.Errorf("two digest archives named %s", name)
		}
		seen[name] = true
	}
	if len(list) != digests {
		t.Errorf("%d digest archives, want %d (one per digest write)", len(list), digests)
	}
	for _, verb := range []string{"verify", "doctor"} {
		for _, f := range r.findings(verb) {
			t.Errorf("%s: %s %s: %s", verb, f.Session, f.Code, f.Message)
		}
	}
}
