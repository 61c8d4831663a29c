package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/registry"
)

// faultCase is one verb run against a prepared repository.
type faultCase struct {
	name  string
	setup [][]string // orc-state commands (a "git" or "sh" first word runs that program)
	args  []string
	stdin string
	env   []string // added to the faulted run's environment
}

const faultDigest = "- Done: phase 1\n- Next: phase 2\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown\n"

// faultCases are the verbs the fault-injection test covers: every kind of
// step a transaction takes (new files, replaced files, appends to the
// journal, progress.md and removed.jsonl, the anchor, folder moves and
// removals, temp-file removals, the state dir and info/exclude).
var faultCases = []faultCase{
	{name: "init (new state dir)", args: []string{"init", "--command", "flow", "--total-phases", "9"}},
	{name: "phase set", args: []string{"phase", "set", "3", "--label", "build"}},
	{name: "digest write", args: []string{"digest", "write", "-"}, stdin: faultDigest},
	{name: "decision set", args: []string{"decision", "set", "db", "postgres", "--provenance", "asked"}},
	{name: "progress append", args: []string{"progress", "append", "-", "--title", "Parser"}, stdin: "Built the parser.\n"},
	{name: "slice set", setup: [][]string{{"slice", "init", "PLAN"}}, args: []string{"slice", "set", "1", "--status", "red"}},
	{name: "artifact put", args: []string{"artifact", "put", "qa/report.json", "-"}, stdin: `{"ok": true}`},
	{name: "session remove", setup: [][]string{{"init", "--branch", "other", "--command", "flow", "--total-phases", "2"},
		{"sh", "printf 'x\\n' | orc-state progress append - --branch other"}},
		args: []string{"session", "remove", "other", "--force"}},
	{name: "cleanup", setup: [][]string{{"init", "--branch", "old", "--command", "flow", "--total-phases", "2"},
		{"status", "set", "completed", "--branch", "old"}, {"sh", "echo '{}' > /dev/null"}},
		args: []string{"cleanup", "--all-completed"}},
	{name: "repair (mirror)", setup: [][]string{{"sh", "sed -i 's/\"phase\": 1,/\"phase\": 2,/' .orc/orc.json"}},
		args: []string{"repair"}},
	{name: "repair --temp", setup: [][]string{{"sh", "echo x > .orc/main/files/.slices.json.tmp-7 && echo y > .orc/.orc.json.tmp-8"}},
		args: []string{"repair", "--temp"}},
	{name: "repair --redact", setup: [][]string{{"phase", "set", "1", "--label", "PLANTME"},
		{"sh", "echo 'token PLANTME' | orc-state progress append -"},
		{"sh", "echo '{\"t\": \"PLANTME\"}' | orc-state artifact put qa/PLANTME.json -"},
		{"plant", "main", "PLANTME", faultToken}},
		args: []string{"repair", "--redact"}},
	// A credential in removed.jsonl came from an older release: a session
	// holding one is no longer removed (it would be archived), so the line
	// is planted after the removal.
	{name: "repair --redact-removed", setup: [][]string{{"init", "--branch", "other", "--command", "flow", "--total-phases", "2", "--description", "PLANTME"},
		{"session", "remove", "other", "--force"}, {"sh", "sed -i s/PLANTME/" + faultToken + "/ .orc/removed.jsonl"}},
		args: []string{"repair", "--redact-removed"}},
	{name: "migrate", setup: [][]string{{"sh", "rm -rf .orc/main && cp -r $LEGACY/. .orc/"}}, args: []string{"migrate"}},
	// The archives of docs/protocol.md §21: in the repository (its git
	// commands are steps too, through atomicfile.Seam) and, without a git
	// program, in .orc/.archive (files of the transaction).
	{name: "session remove (folder archive)", setup: [][]string{{"init", "--branch", "other", "--command", "flow", "--total-phases", "2"},
		{"sh", "printf 'x\\n' | orc-state progress append - --branch other"}},
		args: []string{"session", "remove", "other", "--force"}, env: []string{"PATH=/nonexistent"}},
	{name: "cleanup --force (three, archived)", setup: [][]string{{"init", "--branch", "a", "--command", "flow", "--total-phases", "2"},
		{"init", "--branch", "b", "--command", "flow", "--total-phases", "2"}, {"init", "--branch", "c", "--command", "flow", "--total-phases", "2"}},
		args: []string{"cleanup", "a", "b", "c", "--force"}},
	{name: "repair --remove-orphan", setup: [][]string{{"sh", "mkdir -p .orc/stray/files && cp .orc/main/files/checkpoint.md .orc/stray/files/ && echo note > .orc/stray/files/progress.md"}},
		args: []string{"repair", "--remove-orphan", "stray"}},
	{name: "slice init --force", setup: [][]string{{"slice", "init", "PLAN"}, {"slice", "set", "1", "--status", "red"},
		{"sh", "echo '{\"slices\": [{\"id\": \"9\", \"title\": \"again\"}]}' > ../plan2.json"}},
		args: []string{"slice", "init", "../plan2.json", "--force"}},
	{name: "digest write (over a digest)", setup: [][]string{{"sh", "printf -- '- Done: one\\n- Next: two\\n- Open decisions: none\\n- Artifacts: none\\n- Suite: unknown\\n' | orc-state digest write -"}},
		args: []string{"digest", "write", "-"}, stdin: faultDigest},
	{name: "session restore", setup: [][]string{{"init", "--branch", "other", "--command", "flow", "--total-phases", "2"},
		{"session", "remove", "other", "--force"}},
		args: []string{"session", "restore", "other"}},
	{name: "slice restore", setup: [][]string{{"slice", "init", "PLAN"}, {"sh", "echo '{\"slices\": [{\"id\": \"9\", \"title\": \"again\"}]}' > ../plan2.json"},
		{"slice", "init", "../plan2.json"}},
		args: []string{"slice", "restore"}},
	{name: "cleanup --archives --force (folder)", setup: [][]string{{"init", "--branch", "other", "--command", "flow", "--total-phases", "2"},
		{"sh", "o=$(command -v orc-state) && PATH=/nonexistent \"$o\" session remove other --force"}},
		args: []string{"cleanup", "--archives", "--older-than", "0d", "--force"}, env: []string{"PATH=/nonexistent"}},
}

// faultToken is a fake GitHub token, assembled so that no literal one
// sits in the repository.
var faultToken = "gh" + "p_" + strings.Repeat("F4ult", 8)

const faultPlan = `{"slices": [{"id": 1, "title": "parser", "status": "pending"}, {"id": 2, "title": "cli", "status": "pending", "dependsOn": [1]}]}`

// TestFaultInjection fails, in real processes, each file-system step that
// each verb above takes, one at a time: the odd steps with EIO, the even
// ones with ENOSPC (in -short mode ENOSPC only), so both errnos reach every
// kind of step of every verb while each step is failed once (every step
// of the transactions with both errnos, in process: internal/state's
// TestEveryStepFails; the message per errno: its TestPreflightRefusals). Afterwards the state dir (and info/exclude) is
// byte-identical to before and the exit code 3, or the exit code is 6,
// doctor and verify name the interrupted transaction (and report no
// outside edit), and repair brings the state to exactly what the
// uninterrupted verb writes. It reports how many injection points it
// covered.
//
// The faulted run is a process (the seam is process-wide: ORC_TEST_FAULT
// in seams_test.go); everything around it runs in this process: each case
// starts from a copy of one repository built once per test binary, its
// set-up and the checks after a fault are the CLI in process, and the
// steps of a case run several at a time.
func TestFaultInjection(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	bin := testBinary(t)
	errnos := []string{"EIO", "ENOSPC"}
	if testing.Short() {
		errnos = errnos[1:]
	}
	var points, interrupted atomic.Int64
	t.Cleanup(func() {
		t.Logf("fault injection: %d injection points covered (%d verbs, each step once, with %v); %d failed after the commit point (exit 6, completed by repair)",
			points.Load(), len(faultCases), errnos, interrupted.Load())
	})
	for _, c := range faultCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			template := faultTemplate(t, c)
			faulted := func(dir string, env ...string) (int, string, string) {
				cmd := exec.Command(bin, c.args...)
				cmd.Dir, cmd.Env = filepath.Join(dir, "repo"), append(append(faultEnv(dir), c.env...), env...)
				cmd.Stdin = strings.NewReader(c.stdin)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				var ee *exec.ExitError
				code := 0
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Error(err)
				}
				return code, out.String(), errb.String()
			}
			old := faultManifest(t, template)

			// The uninterrupted run: the new state, and how many steps.
			clean := faultCopy(t, template)
			logPath := filepath.Join(t.TempDir(), "steps")
			if code, _, stderr := faulted(clean, "ORC_TEST_FAULT_LOG="+logPath); code != 0 {
				t.Fatalf("uninterrupted: exit %d: %s", code, stderr)
			}
			want := faultManifest(t, clean)
			if want == old {
				t.Fatal("the verb changed nothing; the case tests nothing")
			}
			logData, _ := os.ReadFile(logPath)
			steps := strings.Split(strings.TrimSpace(string(logData)), "\n")
			if len(steps) < 5 {
				t.Fatalf("only %d steps logged: %q", len(steps), logData)
			}
			t.Logf("%s: %d steps", c.name, len(steps))
			type point struct {
				k     int
				errno string
			}
			work := make(chan point)
			var wg sync.WaitGroup
			for range faultWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for p := range work {
						what := fmt.Sprintf("step %d/%d (%s) failing with %s", p.k, len(steps), steps[p.k-1], p.errno)
						dir := faultCopy(t, template)
						code, stdout, stderr := faulted(dir, fmt.Sprintf("ORC_TEST_FAULT=%d:%s", p.k, p.errno))
						points.Add(1)
						switch code {
						case 3:
							if got := faultManifest(t, dir); got != old {
								t.Errorf("%s: exit 3, but the state changed:\n%s", what, faultDiff(old, got))
							}
							if !strings.Contains(stderr, "nothing was written") {
								t.Errorf("%s: exit 3 without saying nothing was written: %s", what, stderr)
							}
						case 6:
							interrupted.Add(1)
							if stdout != "" {
								t.Errorf("%s: exit 6 printed %q (output is printed only after a commit)", what, stdout)
							}
							r := &rig{t: t, dir: filepath.Join(dir, "repo"), env: faultEnv(dir)}
							faultCheckNamed(t, what, r)
							if code, _, stderr := r.orc("", "repair"); code != 0 {
								t.Errorf("%s: repair: exit %d: %s", what, code, stderr)
							}
							if got := faultManifest(t, dir); got != want {
								t.Errorf("%s: after repair the state is not what the verb writes:\n%s", what, faultDiff(want, got))
							}
						default:
							t.Errorf("%s: exit %d (want 3, or 6 and a recorded transaction)\nstderr: %s", what, code, stderr)
						}
					}
				}()
			}
			for k := 1; k <= len(steps); k++ {
				work <- point{k, errnos[k%len(errnos)]}
			}
			close(work)
			wg.Wait()
		})
	}
}

// faultWorkers is how many steps of one case are failed at a time: each is
// a process that spends most of its time waiting for fsync.
const faultWorkers = 3

// faultEnv is the environment of a faulted run in dir (its home) and of
// the checks after it: the stamp fixed, so that a state repaired after an
// interruption can be compared byte for byte with an uninterrupted run.
func faultEnv(dir string) environ.List {
	return rigEnv(dir).With("ORC_TEST_STAMP=2026-03-04T05:06:07Z", "ORC_ACTOR=fault")
}

// faultCheckNamed asserts that doctor names the interrupted transaction
// and reports nothing it is in the middle of as damage, and that verify
// names it for each session it touches.
func faultCheckNamed(t *testing.T, what string, r *rig) {
	var in struct{ Sessions []string }
	data, err := os.ReadFile(filepath.Join(r.dir, ".orc", ".transaction.json"))
	if err != nil || json.Unmarshal(data, &in) != nil {
		t.Errorf("%s: exit 6 without a readable record: %v", what, err)
		return
	}
	checks := [][]string{{"doctor", "--json"}}
	for _, id := range in.Sessions {
		// the record names sessionIds; migrate's also names the legacy key
		// a session is renamed from, whose sanitized form is the new id
		checks = append(checks, []string{"verify", "--json", "--session", registry.Sanitize(id)})
	}
	for _, verb := range checks {
		code, stdout, stderr := r.orc("", verb...)
		var out struct {
			Findings []struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			switch {
			case verb[0] == "verify" && code == 1 && strings.Contains(stderr, "no session"):
				// removed from orc.json already, or not registered yet
			case code == 6 && strings.Contains(stderr, "was interrupted") && strings.Contains(stderr, "orc-state repair"):
				// a legacy orc.json not yet replaced by migrate
			default:
				t.Errorf("%s: %s: exit %d, %v\n%s%s", what, strings.Join(verb, " "), code, err, stdout, stderr)
			}
			continue
		}
		named := false
		for _, f := range out.Findings {
			switch {
			case f.Code == "transaction.interrupted":
				named = true
			case strings.HasPrefix(f.Code, "edited.") || f.Code == "frontmatter.mismatch" || f.Code == "journal.anchor" ||
				f.Code == "temp.stale" || f.Code == "folder.orphan" || strings.HasPrefix(f.Code, "registry."):
				t.Errorf("%s: %s reports %s: %s", what, strings.Join(verb, " "), f.Code, f.Message)
			}
		}
		if !named {
			t.Errorf("%s: %s does not name the interrupted transaction: %s", what, strings.Join(verb, " "), stdout)
		}
	}
}

// faultTemplate builds the repository a case starts from, in a dir whose
// "repo" subfolder is the work tree: a copy of the git template, the
// session (but for init's case) and the case's set-up.
func faultTemplate(t *testing.T, c faultCase) string {
	r := newRig(t, "git")
	dir := filepath.Dir(r.dir)
	legacy := filepath.Join(dir, "legacy")
	plan := filepath.Join(dir, "plan.json")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(plan, []byte(faultPlan), 0o644))
	must(os.MkdirAll(filepath.Join(legacy, "feat-sso login", "files"), 0o755))
	must(os.WriteFile(filepath.Join(legacy, "orc.json"), []byte(faultLegacy), 0o644))
	must(os.WriteFile(filepath.Join(legacy, "feat-sso login", "files", "checkpoint.md"), []byte(faultLegacyCheckpoint), 0o644))
	r.env = r.env.With("LEGACY=" + legacy)
	if !strings.HasPrefix(c.name, "init") {
		r.mustOrc("", "init", "--command", "flow", "--total-phases", "9")
	}
	for _, s := range c.setup {
		switch s[0] {
		case "sh":
			cmd := exec.Command("sh", "-c", s[1])
			cmd.Dir, cmd.Env = r.dir, r.env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("sh -c %s: %v\n%s", s[1], err, out)
			}
		case "plant": // an older release stored a credential (plant_test.go)
			must(plantSecret(filepath.Join(r.dir, ".orc"), s[1], s[2], s[3]))
		default:
			args := append([]string{}, s...)
			for i := range args {
				if args[i] == "PLAN" {
					args[i] = plan
				}
			}
			r.mustOrc("", args...)
		}
	}
	return dir
}

// faultCopy copies a template dir. It may run on a worker goroutine: a
// failure is reported, and the copy's checks then fail too.
func faultCopy(t *testing.T, from string) string {
	to := t.TempDir()
	if err := copyTree(from, to); err != nil {
		t.Error(err)
	}
	return to
}

// faultManifest is the state: every entry under repo/.orc, the
// repository's info/exclude and its refs under refs/orc/ (the archives). It
// may run on a worker goroutine.
func faultManifest(t *testing.T, dir string) string {
	m, err := manifest(filepath.Join(dir, "repo", ".orc"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Error(err) // on a worker goroutine: reported, not fatal
	}
	exclude, _ := os.ReadFile(filepath.Join(dir, "repo", ".git", "info", "exclude"))
	cmd := exec.Command("git", "for-each-ref", "--format=%(objectname) %(refname)", "refs/orc/")
	cmd.Dir = filepath.Join(dir, "repo")
	refs, err := cmd.Output()
	if err != nil {
		t.Error(err)
	}
	return m + "\nexclude:\n" + string(exclude) + "\nrefs:\n" + string(refs)
}

// faultDiff shows the lines of two manifests that differ.
func faultDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

const faultLegacy = `{
  "schemaVersion": 2,
  "sessions": [
    {"sessionId": "feat-sso login", "branch": "feat-sso login", "gitBranch": "feat/sso login", "command": "flow", "description": "", "status": "in_progress", "current_phase": 2, "total_phases": 5, "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-02T00:00:00Z"},
    {"sessionId": "release", "branch": "release", "gitBranch": "release", "command": "qa", "status": "completed", "phase": "done", "phaseLabel": "qa-complete", "totalPhases": 3, "startedAt": "2025-02-01T00:00:00Z", "updatedAt": "2025-02-02T00:00:00Z"}
  ]
}
`

const faultLegacyCheckpoint = `---
schema: 1
command: flow
branch: feat-sso login
gitBranch: feat/sso login
phase: 2
totalPhases: 5
status: in_progress
updatedAt: 2025-01-02T00:00:00Z
---

## Resume digest
- Done: legacy work
- Next: phase 3
- Open decisions: none
- Artifacts: none
- Suite: unknown
`
