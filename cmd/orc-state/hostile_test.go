package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
)

// hostileValues are one-line values that are hostile to YAML (": ",
// quotes, "#", "---", flow collections, anchors, tags, block indicators,
// yes/null/1e3, leading and trailing spaces) and to a shell: every free-text
// flag stores them verbatim, safely encoded (docs/protocol.md §4).
var hostileValues = []string{
	"a: b",
	`x ' "y" #z`,
	"---",
	"{k: [1, 2]}",
	"&a *b !!str | >",
	"yes",
	"null",
	" padded ",
	"%TAG ! x",
	"1e3",
	"@x `y`",
	"- item",
	"? key",
	"[a, b]",
	"~",
}

// hostileFlags set a value through one free-text flag (n numbers the value)
// and read it back as a reader of the state sees it; verify then runs on
// the session the value went to.
var hostileFlags = []struct {
	flag string
	set  func(r *clitest.Rig, n int, v string) (session string)
	get  func(r *clitest.Rig, n int, session string) string
}{
	{"phase set --label",
		func(r *clitest.Rig, n int, v string) string {
			r.MustOrc("", "phase", "set", "2", "--label="+v)
			return "main"
		},
		func(r *clitest.Rig, n int, s string) string {
			return line(r.MustOrc("", "get", "--field", "phaseLabel"))
		}},
	{"init --command",
		func(r *clitest.Rig, n int, v string) string { return newSession(r, n, "c", "--command="+v) },
		func(r *clitest.Rig, n int, s string) string {
			return line(r.MustOrc("", "get", s, "--field", "command"))
		}},
	{"init --description",
		func(r *clitest.Rig, n int, v string) string {
			return newSession(r, n, "d", "--command=flow", "--description="+v)
		},
		func(r *clitest.Rig, n int, s string) string {
			return line(r.MustOrc("", "get", s, "--field", "description"))
		}},
	{"init --plan-file",
		func(r *clitest.Rig, n int, v string) string {
			return newSession(r, n, "p", "--command=flow", "--plan-file="+v)
		},
		func(r *clitest.Rig, n int, s string) string {
			return line(r.MustOrc("", "get", s, "--field", "planFile"))
		}},
	{"link-pr --repo",
		func(r *clitest.Rig, n int, v string) string {
			r.MustOrc("", "link-pr", "--repo="+v, "--url", prURL(n))
			return "main"
		},
		func(r *clitest.Rig, n int, s string) string {
			var prs []struct{ Repo, URL string }
			if err := json.Unmarshal([]byte(r.MustOrc("", "get", "--field", "linkedPRs")), &prs); err != nil {
				r.T.Fatal(err)
			}
			for _, pr := range prs {
				if pr.URL == prURL(n) {
					return pr.Repo
				}
			}
			return "(no PR " + prURL(n) + ")"
		}},
	{"gate record --reviewer",
		func(r *clitest.Rig, n int, v string) string {
			phase := line(r.MustOrc("", "get", "--field", "phase"))
			r.MustOrc("", "gate", "record", phase, "--verdict", "changes_requested", "--reviewer="+v)
			return "main"
		},
		func(r *clitest.Rig, n int, s string) string {
			verdict := "(no verdict in gate show)" // the last verdict row: phase, verdict, reviewer, ...
			for _, row := range strings.Split(r.MustOrc("", "gate", "show"), "\n") {
				if cols := strings.Split(row, "\t"); len(cols) >= 3 && row[0] >= '0' && row[0] <= '9' {
					verdict = cols[2]
				}
			}
			return verdict
		}},
	{"checkpoint --trigger",
		func(r *clitest.Rig, n int, v string) string {
			r.MustOrc("", "checkpoint", "--auto", "--trigger="+v)
			return "main"
		},
		func(r *clitest.Rig, n int, s string) string {
			data, err := os.ReadFile(filepath.Join(r.Dir, ".orc", "main", "files", "checkpoint.md"))
			if err != nil {
				r.T.Fatal(err)
			}
			m := regexp.MustCompile(`(?m)^- At: \S+ \(trigger: (.*)\)$`).FindSubmatch(data)
			if m == nil {
				return "(no Auto-checkpoint)"
			}
			return string(m[1])
		}},
}

// TestHostileValuesRoundTrip sets every hostile value through every
// free-text flag: each reads back byte for byte, and verify, which parses
// the checkpoint's frontmatter strictly and compares it with the registry,
// stays clean.
func TestHostileValuesRoundTrip(t *testing.T) {
	for _, f := range hostileFlags {
		t.Run(f.flag, func(t *testing.T) {
			t.Parallel()
			r := clitest.NewRig(t, "main")
			r.MustOrc("", "decision", "set", "maxRetriesPerPhase", "1000", "--provenance", "policy")
			for n, v := range hostileValues {
				s := f.set(r, n, v)
				if got := f.get(r, n, s); got != v {
					t.Errorf("%q: read back %q", v, got)
				}
				if code, stdout, stderr := r.Orc("", "verify", s); code != 0 {
					t.Errorf("%q: verify %s: exit %d\n%s%s", v, s, code, stdout, stderr)
				}
			}
		})
	}
	// The frontmatter holds the value YAML-quoted, not as a mapping.
	r := clitest.NewRig(t, "main")
	r.MustOrc("", "phase", "set", "2", "--label=a: b")
	data, err := os.ReadFile(filepath.Join(r.Dir, ".orc", "main", "files", "checkpoint.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^phaseLabel: 'a: b'$`).Match(data) {
		t.Errorf("checkpoint.md does not quote the label:\n%s", data)
	}
}

// newSession registers a session for a new branch prefix<n> with flags.
func newSession(r *clitest.Rig, n int, prefix string, flags ...string) string {
	branch := fmt.Sprintf("%s%d", prefix, n)
	r.Git("branch", branch)
	r.MustOrc("", append([]string{"init", "--branch", branch, "--total-phases", "3"}, flags...)...)
	return branch
}

// line is a read verb's one-line answer without its newline.
func line(out string) string { return strings.TrimSuffix(out, "\n") }

func prURL(n int) string { return fmt.Sprintf("https://example.com/pr/%d", n+1) }
