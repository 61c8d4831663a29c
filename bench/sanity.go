package main

import (
	"fmt"
	"strings"
)

// sanity checks, after the timed runs, that the fixtures are still what
// the numbers claim: every session registered, every file valid, and the
// measured sessions passing verify (journal chain intact, mirror in step).
func (h *harness) sanity(repos ...string) error {
	for _, repo := range repos {
		if out, err := h.orc(repo, "", "verify"); err != nil {
			return fmt.Errorf("after the runs, verify in %s failed: %v\n%s", repo, err, out)
		}
	}
	for _, repo := range repos {
		out, err := h.orc(repo, "", "sessions")
		if err != nil {
			return err
		}
		logf("%s holds %d sessions; verify passes there", repo, strings.Count(out, "\n"))
	}
	return nil
}
