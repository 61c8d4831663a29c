package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// sweepOnce times one real `cleanup --gone --force` that removes every
// session of a copy of the many-session state dir (it can run only once
// per copy, so it is a single measurement, reported under the table).
func (h *harness) sweepOnce(repo string, n int) (string, error) {
	copyDir := filepath.Join(filepath.Dir(repo), "sweep-state")
	if out, err := exec.Command("cp", "-a", filepath.Join(repo, ".orc"), copyDir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copy the state dir: %v: %s", err, out)
	}
	defer os.RemoveAll(copyDir)
	start := time.Now()
	if _, err := h.orc(repo, "", "--dir", copyDir, "cleanup", "--gone", "--force"); err != nil {
		return "", err
	}
	took := time.Since(start)
	left, err := h.orc(repo, "", "--dir", copyDir, "sessions")
	if err != nil || strings.Count(left, "\n") != 1 { // main's branch exists: it stays
		return "", fmt.Errorf("cleanup left sessions behind: %q %v", left, err)
	}
	return fmt.Sprintf("\nOne real `cleanup --gone --force` of the %d sessions whose branch does not exist (folders and entries "+
		"removed, one tombstone each, in one locked transaction): %.0f ms, a single run on a copy of the state dir.\n",
		n-1, float64(took.Microseconds())/1000), nil
}
