package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// mergedSweep times a real `cleanup --merged --force` that removes half of
// a many-session registry (the first n/2 fillers, whose branches it creates
// at the tip of main, so they are merged), in the repository's own state
// dir: each removed session is archived first as a commit under
// refs/orc/archive/ (docs/protocol.md §21). Each run gets a fresh copy of
// the whole repository; the median of runs is reported, with the count of
// archives made.
func (h *harness) mergedSweep(repo string, n, runs int) (string, error) {
	half := n / 2
	var took []time.Duration
	archives := 0
	for r := 0; r < runs; r++ {
		copyDir := filepath.Join(filepath.Dir(repo), fmt.Sprintf("merged-%d", r))
		if out, err := exec.Command("cp", "-a", repo, copyDir).CombinedOutput(); err != nil {
			return "", fmt.Errorf("copy the repository: %v: %s", err, out)
		}
		var refs strings.Builder
		for i := 1; i <= half; i++ {
			fmt.Fprintf(&refs, "create refs/heads/%s HEAD\n", fillerBranch(i))
		}
		if _, err := h.run(copyDir, refs.String(), "git", "update-ref", "--stdin"); err != nil {
			return "", err
		}
		start := time.Now()
		if _, err := h.orc(copyDir, "", "cleanup", "--merged", "--force"); err != nil {
			return "", err
		}
		took = append(took, time.Since(start))
		left, err := h.orc(copyDir, "", "sessions")
		if err != nil || strings.Count(left, "\n") != n-half {
			return "", fmt.Errorf("cleanup --merged left %d sessions, want %d: %v", strings.Count(left, "\n"), n-half, err)
		}
		list, err := h.git(copyDir, "for-each-ref", "refs/orc/archive/")
		if err != nil {
			return "", err
		}
		archives = strings.Count(list, "\n")
		os.RemoveAll(copyDir)
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	return fmt.Sprintf("\nA real `cleanup --merged --force` of %d of the %d sessions (their branches merged into main), in the "+
		"repository's own state dir, with %d archives made under refs/orc/archive/: %.0f ms, the median of %d runs on copies of the repository.\n",
		half, n, archives, float64(took[len(took)/2].Microseconds())/1000, runs), nil
}
