package faulttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clitest"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
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
	// A record of an 800 KB append makes the log hold 1 MiB in three
	// records: the phase set after it, the fourth, checkpoints the log
	// (every file it names fsynced, then its removal).
	{name: "phase set (checkpoint due)", setup: [][]string{
		{"sh", "echo first | orc-state progress append - && head -c 800000 /dev/zero | tr '\\0' x | orc-state progress append -"}},
		args: []string{"phase", "set", "3", "--label", "build"}},
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

// TestFaultInjection fails each file-system step that each verb above
// takes, one at a time: the odd steps with EIO, the even ones with ENOSPC
// (in -short mode ENOSPC only), so both errnos reach every kind of step of
// every verb while each step is failed once (every step of the
// transactions with both errnos: internal/state's TestEveryStepFails; the
// message per errno: its TestPreflightRefusals). Afterwards the state dir
// (with info/exclude and the archive refs) is byte-identical to before and
// the exit code 3, or the exit code is 6, doctor and verify name the
// interrupted transaction (and report no outside edit), and repair brings
// the state to exactly what the uninterrupted verb writes. It reports how
// many injection points it covered.
//
// Each case starts from a copy of a repository built once. The
// uninterrupted run is a real process with the step log of internal/clitest/seams.go
// (ORC_TEST_FAULT_LOG): the list of steps to fail. The faulted runs are
// the CLI in this process, several at a time, beside other tests: the
// fault hook (atomicfile.Fault, process-wide) is faultSteps, installed by
// TestMain, which gives each step to the registered run whose dir holds
// its path; every other step passes. An in-process uninterrupted run must
// take exactly the process's steps, so no step escapes the router. Every
// run records the same fixed time (faultStamp), so a repaired state can be
// compared byte for byte with the uninterrupted run's.
func TestFaultInjection(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	errnos := []syscall.Errno{syscall.EIO, syscall.ENOSPC}
	if testing.Short() {
		errnos = errnos[1:]
	}
	// The repositories the cases start from, built first.
	templates := make([]string, len(faultCases))
	for i := range templates {
		templates[i] = t.TempDir() // outlives the set-up's subtests
	}
	t.Run("set-up", func(t *testing.T) {
		for i, c := range faultCases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				if err := statetest.CopyTree(faultTemplate(t, c), templates[i]); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	var points, interrupted atomic.Int64
	t.Cleanup(func() {
		t.Logf("fault injection: %d injection points covered (%d verbs, each step once, with %v); %d failed after the commit point (exit 6, completed by repair)",
			points.Load(), len(faultCases), errnos, interrupted.Load())
	})
	for i, c := range faultCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			template := templates[i]
			old := faultManifest(t, template)
			oldRecords, _ := faultLog(template)

			// The uninterrupted run, a process: the new state, and the steps.
			clean := faultCopy(t, template)
			logPath := filepath.Join(t.TempDir(), "steps")
			proc := &clitest.Rig{T: t, Dir: filepath.Join(clean, "repo"), Env: faultEnv(clean).With(c.env...).With("ORC_TEST_FAULT_LOG=" + logPath)}
			if code, stdout, stderr := proc.Exec(c.stdin, c.args...); code != 0 {
				t.Fatalf("uninterrupted: exit %d: %s%s", code, stdout, stderr)
			}
			want := faultManifest(t, clean)
			if want == old {
				t.Fatal("the verb changed nothing; the case tests nothing")
			}
			logData, _ := os.ReadFile(logPath)
			steps := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(logData), clean, "DIR")), "\n")
			if len(steps) < 5 {
				t.Fatalf("only %d steps logged: %q", len(steps), logData)
			}
			t.Logf("%s: %d steps", c.name, len(steps))

			// The same run in process takes the same steps, each routed to it.
			inProcess := faultCopy(t, template)
			if code, _, stderr, taken := faultRun(t, c, inProcess, 0, 0); code != 0 {
				t.Fatalf("uninterrupted in process: exit %d: %s", code, stderr)
			} else if got := strings.Join(taken, "\n"); got != strings.Join(steps, "\n") {
				t.Fatalf("in process the verb takes other steps than as a process:\nprocess:\n%s\nin process:\n%s", strings.Join(steps, "\n"), got)
			}
			if got := faultManifest(t, inProcess); got != want {
				t.Fatalf("in process the verb writes another state than as a process:\n%s", statetest.ManifestDiff(want, got))
			}

			work := make(chan int)
			var wg sync.WaitGroup
			for range faultWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range work {
						errno := errnos[k%len(errnos)]
						what := fmt.Sprintf("step %d/%d (%s) failing with %s", k, len(steps), steps[k-1], faultErrnoName(errno))
						dir := faultCopy(t, template)
						code, stdout, stderr, _ := faultRun(t, c, dir, k, errno)
						points.Add(1)
						switch code {
						case 0:
							// A checkpoint after the change failed: the record keeps it.
							if got := faultManifest(t, dir); got != want {
								t.Errorf("%s: exit 0, but the state is not what the verb writes:\n%s", what, statetest.ManifestDiff(want, got))
							}
						case 3:
							if got := faultManifest(t, dir); got != old {
								t.Errorf("%s: exit 3, but the state changed:\n%s", what, statetest.ManifestDiff(old, got))
							}
							if n, pending := faultLog(dir); n > oldRecords || pending != "" {
								t.Errorf("%s: exit 3, but the log holds %d records (was %d), interrupted: %q", what, n, oldRecords, pending)
							}
							if !strings.Contains(stderr, "nothing was written") {
								t.Errorf("%s: exit 3 without saying nothing was written: %s", what, stderr)
							}
						case 6:
							interrupted.Add(1)
							if stdout != "" {
								t.Errorf("%s: exit 6 printed %q (output is printed only after a commit)", what, stdout)
							}
							r := &clitest.Rig{T: t, Dir: filepath.Join(dir, "repo"), Env: faultEnv(dir)}
							faultCheckNamed(t, what, r)
							if code, _, stderr := r.Orc("", "repair"); code != 0 {
								t.Errorf("%s: repair: exit %d: %s", what, code, stderr)
							}
							if got := faultManifest(t, dir); got != want {
								t.Errorf("%s: after repair the state is not what the verb writes:\n%s", what, statetest.ManifestDiff(want, got))
							}
							if _, pending := faultLog(dir); pending != "" {
								t.Errorf("%s: after repair the log still names %s", what, pending)
							}
						default:
							t.Errorf("%s: exit %d (want 3, or 6 and a recorded transaction)\nstderr: %s", what, code, stderr)
						}
					}
				}()
			}
			for k := 1; k <= len(steps); k++ {
				work <- k
			}
			close(work)
			wg.Wait()
		})
	}
}

// faultStamp is the time every recorded timestamp of the faulted runs
// carries ($ORC_TEST_STAMP, read by clitest.Clock in and out of process).
const faultStamp = "2026-03-04T05:06:07Z"

// faultRun runs case c's verb in this process in dir (a copy of its
// template), failing its failAt-th step (0: none) with errno, and returns
// its exit code, output and the steps it took ("op path", dir written
// DIR). It may run on a worker goroutine.
func faultRun(t *testing.T, c faultCase, dir string, failAt int, errno syscall.Errno) (code int, stdout, stderr string, steps []string) {
	run := faultSteps.add(dir, failAt, errno)
	defer faultSteps.remove(run)
	code, stdout, stderr = clitest.Run(cli.Process{Args: c.args, Stdin: strings.NewReader(c.stdin),
		Environ: faultEnv(dir).With(c.env...), Dir: filepath.Join(dir, "repo")})
	return code, stdout, stderr, run.taken()
}

// faultSteps is atomicfile.Fault in this test binary (TestMain installs
// it): each step belongs to the registered run whose dir holds its path,
// is logged there, and fails when it is that run's failAt-th. Steps of
// anything else (every other test, the templates being built) pass.
var faultSteps = &faultRouter{}

// faultRouter routes the fault hook's steps to the runs registered.
type faultRouter struct {
	mu   sync.Mutex
	runs []*faultRunSteps
}

// faultRunSteps is one registered run.
type faultRunSteps struct {
	dir    string // with a trailing separator
	failAt int
	errno  syscall.Errno
	steps  []string
}

func (r *faultRouter) add(dir string, failAt int, errno syscall.Errno) *faultRunSteps {
	run := &faultRunSteps{dir: dir + string(filepath.Separator), failAt: failAt, errno: errno}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, run)
	return run
}

func (r *faultRouter) remove(run *faultRunSteps) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = slices.DeleteFunc(r.runs, func(x *faultRunSteps) bool { return x == run })
}

func (r *faultRouter) step(op atomicfile.Op, path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, run := range r.runs {
		if strings.HasPrefix(path, run.dir) {
			run.steps = append(run.steps, fmt.Sprintf("%s DIR%c%s", op, filepath.Separator, strings.TrimPrefix(path, run.dir)))
			if len(run.steps) == run.failAt {
				return run.errno
			}
			return nil
		}
	}
	return nil
}

func (run *faultRunSteps) taken() []string {
	return run.steps // read after the run, by the goroutine that ran it
}

// faultErrnoName is the errno's name as the tests print it.
func faultErrnoName(e syscall.Errno) string {
	if e == syscall.EIO {
		return "EIO"
	}
	return "ENOSPC"
}

// faultWorkers is how many steps of one case are failed at a time: each
// run spends most of its time waiting for fsync or git.
const faultWorkers = 6

// faultEnv is the environment of a faulted run in dir (its home) and of
// the checks after it: the stamp fixed, so that a state repaired after an
// interruption can be compared byte for byte with an uninterrupted run.
func faultEnv(dir string) environ.List {
	return clitest.RigEnv(dir).With("ORC_TEST_STAMP="+faultStamp, "ORC_ACTOR=fault")
}

// faultCheckNamed asserts that doctor names the interrupted transaction
// and reports nothing it is in the middle of as damage, and that verify
// names it for each session it touches.
func faultCheckNamed(t *testing.T, what string, r *clitest.Rig) {
	in, err := (&state.Dir{Path: filepath.Join(r.Dir, ".orc")}).Pending()
	if err != nil || in == nil {
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
		code, stdout, stderr := r.Orc("", verb...)
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
	r := clitest.NewRig(t, "git")
	dir := filepath.Dir(r.Dir)
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
	r.Env = r.Env.With("LEGACY=" + legacy)
	if !strings.HasPrefix(c.name, "init") {
		r.MustOrc("", "init", "--command", "flow", "--total-phases", "9")
	}
	for _, s := range c.setup {
		switch s[0] {
		case "sh":
			cmd := exec.Command("sh", "-c", s[1])
			cmd.Dir, cmd.Env = r.Dir, r.Env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("sh -c %s: %v\n%s", s[1], err, out)
			}
		case "plant": // an older release stored a credential (clitest.PlantSecret)
			must(clitest.PlantSecret(filepath.Join(r.Dir, ".orc"), s[1], s[2], s[3]))
		default:
			args := append([]string{}, s...)
			for i := range args {
				if args[i] == "PLAN" {
					args[i] = plan
				}
			}
			r.MustOrc("", args...)
		}
	}
	return dir
}

// faultCopy copies a template dir, to a path without symbolic links (the
// router matches the paths the run takes). It may run on a worker
// goroutine: a failure is reported, and the copy's checks then fail too.
func faultCopy(t *testing.T, from string) string {
	to, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Error(err)
	}
	if err := statetest.CopyTree(from, to); err != nil {
		t.Error(err)
	}
	return to
}

// faultManifest is the state: every entry under repo/.orc, the
// repository's info/exclude, and its archive refs as git stores them (the
// files under refs/orc/ and packed-refs, byte for byte: stricter than
// what git lists, and no git process per check). It may run on a worker
// goroutine.
// faultLog is what the state dir's write-ahead log says: how many
// records it holds and the transaction it names as interrupted ("" for
// none).
func faultLog(dir string) (records int, pending string) {
	d := &state.Dir{Path: filepath.Join(dir, "repo", ".orc")}
	if in, _ := d.Pending(); in != nil {
		pending = in.Describe()
	}
	data, _ := os.ReadFile(filepath.Join(d.Path, state.IntentFile))
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"verb":`) {
			records++
		}
	}
	return records, pending
}

func faultManifest(t *testing.T, dir string) string {
	var b strings.Builder
	gitDir := filepath.Join(dir, "repo", ".git")
	for _, part := range []struct{ name, root string }{
		{"state", filepath.Join(dir, "repo", ".orc")},
		{"refs", filepath.Join(gitDir, "refs", "orc")},
	} {
		m, err := statetest.Manifest(part.root)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Error(err) // on a worker goroutine: reported, not fatal
		}
		if part.name == "refs" { // the folders git leaves when it deletes a ref are no ref
			m = strings.Join(slices.DeleteFunc(strings.Split(m, "\n"), func(l string) bool { return strings.HasPrefix(l, "D ") }), "\n")
		}
		if part.name == "state" { // the log is compared by what it says (faultLog), not byte for byte
			m = strings.Join(slices.DeleteFunc(strings.Split(m, "\n"), func(l string) bool {
				return strings.HasPrefix(l, "F "+state.IntentFile+" ")
			}), "\n")
		}
		fmt.Fprintf(&b, "%s:\n%s\n", part.name, m)
	}
	for _, name := range []string{"info/exclude", "packed-refs"} {
		data, _ := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(name)))
		fmt.Fprintf(&b, "%s:\n%s\n", name, data)
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
