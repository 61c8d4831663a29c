package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/environ"
)

// TestMain is two programs. Started as "orc-state" (through the copy of
// this test binary that installOrcState puts first on $PATH) it is
// orc-state, with the test seams of seams_test.go: that is what `exec
// orc-state` in a scenario, a shell line of one, and the Go tests that
// need a real process run. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	if strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == "orc-state" {
		installSeams()
		os.Exit(cli.Run(childProcess()))
	}
	dir, err := installOrcState()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testRoot is the test run's own temp dir (set by TestMain before any test
// runs, removed after the last): orc-state's copy and the rig templates.
var testRoot string

// installOrcState puts a copy of this test binary named orc-state (a hard
// link where the file system allows) in a new temp dir at the front of
// $PATH, before any test runs, and returns the dir.
func installOrcState() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "orc-state-test-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "bin", "orc-state"+exeSuffix())
	if err := os.Mkdir(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	if err := os.Link(self, bin); err != nil {
		data, err := os.ReadFile(self)
		if err == nil {
			err = os.WriteFile(bin, data, 0o755)
		}
		if err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("install orc-state for the tests: %v", err)
		}
	}
	os.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir, nil
}

// exeSuffix is the executable suffix of the platform.
func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// childProcess is the Process of this binary run as orc-state: the real
// one, with the claim clock at $ORC_TEST_NOW and the statusline's wait for
// git at $ORC_TEST_PLACE_WAIT when they are set.
func childProcess() cli.Process {
	wd, _ := os.Getwd()
	p := cli.Process{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Environ: environ.OS(), Dir: wd}
	if err := testClock(&p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(70)
	}
	return p
}

// testClock sets p's claim clock from $ORC_TEST_NOW, an RFC 3339 time, so
// scenarios can step past a lease without waiting, and the statusline's
// wait for git from $ORC_TEST_PLACE_WAIT, so a scenario can make a cold
// render wait longer for git than production's few tens of milliseconds.
// Only the tests read these variables; the journal's at stays real time.
func testClock(p *cli.Process) error {
	if v := p.Environ.Get("ORC_TEST_NOW"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return fmt.Errorf("ORC_TEST_NOW=%q is not an RFC 3339 time: %v", v, err)
		}
		p.Now = func() time.Time { return t }
	}
	if v := p.Environ.Get("ORC_TEST_PLACE_WAIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("ORC_TEST_PLACE_WAIT=%q is not a duration: %v", v, err)
		}
		p.PlaceWait = d
	}
	return nil
}

// TestScripts runs the CLI scenarios in testdata/script against real git
// repositories and files in a temp dir: `orc-state ...` runs the CLI in
// this process (inprocess_test.go), `exec orc-state ...` as a real process.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams())
}

// scriptParams are the testscript settings every scenario runs with.
func scriptParams() testscript.Params {
	return testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup:               setupGit,
		Condition: func(cond string) (bool, error) {
			if cond == "tmpfs" {
				return canMountTmpfs(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"orc-state":  orcState,
			"snapshot":   snapshot,
			"rc":         rc,
			"unpriv":     unpriv,
			"mounttmpfs": mounttmpfs,
			"plant":      plant,
			"gitrepo":    gitrepo,
		},
	}
}

// setupGit makes git hermetic inside every script.
func setupGit(env *testscript.Env) error {
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_CONFIG_SYSTEM":   "/dev/null",
		"GIT_AUTHOR_NAME":     "Orc Test",
		"GIT_AUTHOR_EMAIL":    "orc@example.com",
		"GIT_COMMITTER_NAME":  "Orc Test",
		"GIT_COMMITTER_EMAIL": "orc@example.com",
		"GIT_AUTHOR_DATE":     "2026-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE":  "2026-01-01T00:00:00Z",
		"HOME":                env.WorkDir,
		"ORC_STATE_DIR":       "",
		"ORC_ACTOR":           "",
		"ORC_SESSION":         "",
		"CLAUDE_PROJECT_DIR":  "",
		"ORC_TEST_NOW":        "",
		"ORC_LOCK_TIMEOUT":    "",
		"NO_COLOR":            "",
		// A cold statusline render waits for git until it answers, so the
		// dirty mark a scenario sees does not depend on the machine's load
		// (an unanswered look shows "?"); a scenario about the production
		// wait sets it empty.
		"ORC_TEST_PLACE_WAIT": "20s",
	} {
		env.Setenv(k, v)
	}
	return nil
}

// snapshot DIR FILE writes a manifest of every file under DIR (path, mode
// type and sha256), so a script can assert that a refused command changed
// no byte: snapshot .orc before; ...; snapshot .orc after; cmp before after.
func snapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot DIR FILE")
	}
	text, err := manifest(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text+"\n"), 0o644))
}

// gitrepo [-b BRANCH] [-m MESSAGE] [--unborn | --bare | --clone REMOTE] [DIR]
// makes a scenario's starting repository in DIR (default: the current
// dir) without starting git: a copy of one that git made once per test
// binary with the same words and environment (gitrepo_test.go), the same
// commit id, HEAD, branch and config as the git commands it stands for:
//
//	gitrepo -b B -m M DIR       git init -q -b B DIR; cd DIR; git commit -q --allow-empty -m M
//	gitrepo --unborn -b B DIR   git init -q -b B DIR
//	gitrepo --bare DIR          git init -q --bare DIR
//	gitrepo --clone R -b B -m M DIR
//	                            git clone -q R DIR; cd DIR; git checkout -q -b B; git commit -q --allow-empty -m M
//
// -b defaults to main (a clone without -b commits on the branch it
// cloned, master), -m to base. --clone takes only an empty bare
// repository that gitrepo --bare made. It refuses an environment it cannot
// copy for (a GIT_* variable other than setupGit's and GIT_DEFAULT_HASH,
// a config file); a scenario about git's own behaviour runs exec git.
func gitrepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: gitrepo [-b BRANCH] [-m MESSAGE] [--unborn | --bare | --clone REMOTE] [DIR]")
	}
	if err := makeRepo(scriptEnviron(ts), ts.MkAbs("."), args); err != nil {
		ts.Fatalf("gitrepo: %v", err)
	}
}

// rc N command args... runs the command like exec (its stdout and stderr
// are what the next stdout/stderr assertions see) and fails unless it
// exits with code N: rc 2 orc-state phase set x. orc-state runs in this
// process, as the orc-state command does; rc N exec orc-state ... runs it
// as a real process.
func rc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: rc N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 || want > 255 {
		ts.Fatalf("rc: exit code %q is not a number from 0 to 255", args[0])
	}
	got, cmd := 0, args[1:]
	if cmd[0] == "exec" && len(cmd) > 1 {
		cmd = cmd[1:] // rc N exec orc-state ...: a real process
	} else if cmd[0] == "orc-state" {
		got, cmd = runInProcess(ts, cmd[1:]), nil
	}
	if cmd != nil {
		if err := ts.Exec(cmd[0], cmd[1:]...); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				ts.Fatalf("rc: %s: %v", cmd[0], err)
			}
			got = exit.ExitCode()
		}
	}
	if got != want {
		ts.Fatalf("rc: %s exited with code %d, want %d", args[1], got, want)
	}
}

// manifest lists every entry under root, sorted: its type, path, and the
// sha256 of a file or the target of a link.
func manifest(root string) (string, error) {
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			lines = append(lines, fmt.Sprintf("L %s -> %s", rel, target))
		case d.IsDir():
			lines = append(lines, "D "+rel)
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("F %s %x", rel, sha256.Sum256(data)))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

// testBinary returns an orc-state executable for the Go tests that run
// real processes: the copy of this test binary that TestMain installed
// first on $PATH.
func testBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("orc-state")
	if err != nil {
		t.Fatalf("orc-state is not on $PATH: %v", err)
	}
	return p
}

// hermeticEnv is the process environment with nothing that could steer
// git, orc-state, colours or tmux, a fixed git identity and dates, HOME
// set to home, and extra appended.
func hermeticEnv(home string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "GIT_"), strings.HasPrefix(name, "ORC_"), strings.HasPrefix(name, "CLAUDE_"), strings.HasPrefix(name, "COMP_"),
			name == "NO_COLOR", name == "HOME", name == "TMUX", name == "TMUX_PANE", name == "XDG_CONFIG_HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Orc Test",
		"GIT_AUTHOR_EMAIL=orc@example.com",
		"GIT_COMMITTER_NAME=Orc Test",
		"GIT_COMMITTER_EMAIL=orc@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	)
	return append(env, extra...)
}
