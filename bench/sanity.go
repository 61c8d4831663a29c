package main

import (
	"fmt"
	"strings"
)

// sanity checks, after the timed runs, that the fixtures are still what
// the numbers claim: every session registered, every file valid, and the
// measured sessions passing verify (journal chain intact, mirror in step).
func (h *harness) sanity(one, many string) error {
	for _, repo := range []string{one, many} {
		if out, err := h.orc(repo, "", "verify"); err != nil {
			return fmt.Errorf("after the runs, verify in %s failed: %v\n%s", repo, err, out)
		}
	}
	out, err := h.orc(many, "", "sessions")
	if err != nil {
		return err
	}
	logf("%s holds %d sessions; verify passes in both session fixtures", many, strings.Count(out, "\n"))
	return nil
}
