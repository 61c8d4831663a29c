package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
)

// TestHookPayloadDocs holds the payload examples of hooks/README.md to
// the recorded payloads the hook tests feed the verbs, and to each verb's
// --help: every event has one example, byte for byte a file of
// testdata/hooks, and the fields the README says a verb reads are the
// fields its --help names (internal/cli's TestHookHelpNamesDecodedFields
// holds those to what the verbs decode).
func TestHookPayloadDocs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "hooks", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Payloads\n")
	if !ok {
		t.Fatal("hooks/README.md has no ## Payloads section")
	}
	example := regexp.MustCompile("(?s)\\(`((?:hook [a-z-]+)|statusline)` reads (.*?)[;)].*?```json\n(.*?)```")
	recorded, err := filepath.Glob(filepath.Join("testdata", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range example.FindAllStringSubmatch(section, -1) {
		verb, block := m[1], m[3]
		seen[verb] = true
		fields := backticked(m[2])
		t.Run(verb, func(t *testing.T) {
			same := ""
			for _, f := range recorded {
				if b, _ := os.ReadFile(f); string(b) == block {
					same = f
				}
			}
			if same == "" {
				t.Errorf("the example of %s is no file of testdata/hooks (byte for byte)", verb)
			}
			if !json.Valid([]byte(block)) {
				t.Fatalf("the example of %s is not JSON", verb)
			}
			help := helpOf(t, strings.Fields(verb)...)
			m := regexp.MustCompile(`(?s)it reads: (.*?);`).FindStringSubmatch(help)
			if m == nil {
				t.Fatalf("%s --help names no fields it reads:\n%s", verb, help)
			}
			if got := strings.Join(strings.Fields(m[1]), " "); got != strings.Join(fields, ", ") {
				t.Errorf("%s --help reads %q; hooks/README.md says %q", verb, got, strings.Join(fields, ", "))
			}
		})
	}
	for _, verb := range []string{"hook pre-compact", "hook session-start", "hook stop", "hook post-tool-use", "statusline",
		"hook subagent-stop", "hook stop-failure", "hook session-end", "hook worktree-create", "hook worktree-remove"} {
		if !seen[verb] {
			t.Errorf("hooks/README.md ## Payloads has no example for %s", verb)
		}
	}
}

// backticked returns the `quoted` words of s, in order.
func backticked(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// helpOf is `orc-state <words> --help`, run in process.
func helpOf(t *testing.T, words ...string) string {
	t.Helper()
	code, stdout, stderr := clitest.Run(cli.Process{Args: append(words, "--help"), Environ: environ.List{"HOME=" + t.TempDir()}, Dir: t.TempDir()})
	if code != 0 || stderr != "" {
		t.Fatalf("%s --help: exit %d, stderr %s", strings.Join(words, " "), code, stderr)
	}
	return stdout
}
