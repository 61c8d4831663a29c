package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/clock"
)

func TestMain(m *testing.M) {
	installSeams()
	testscript.Main(m, map[string]func(){
		"orc-state": func() {
			useTestClock()
			// A scenario can make the statusline's cold render wait longer
			// for git than production's few tens of milliseconds.
			if d, err := time.ParseDuration(os.Getenv("ORC_TEST_PLACE_WAIT")); err == nil {
				cli.PlaceWait = d
			}
			os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// useTestClock fixes the claim clock (internal/clock) at $ORC_TEST_NOW, an
// RFC 3339 time, so scenarios can step past a lease without waiting. Only
// this test binary reads the variable; the journal's at stays real time.
func useTestClock() {
	v := os.Getenv("ORC_TEST_NOW")
	if v == "" {
		return
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ORC_TEST_NOW=%q is not an RFC 3339 time: %v\n", v, err)
		os.Exit(70)
	}
	clock.Now = func() time.Time { return t }
}

// TestScripts runs the CLI scenarios in testdata/script: each is a real
// orc-state process against real git repositories and files in a temp dir.
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
			"snapshot":   snapshot,
			"rc":         rc,
			"unpriv":     unpriv,
			"mounttmpfs": mounttmpfs,
			"plant":      plant,
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
		"ORC_TEST_NOW":        "",
		"ORC_LOCK_TIMEOUT":    "",
		"NO_COLOR":            "",
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

// rc N command args... runs the command like exec (its stdout and stderr
// are what the next stdout/stderr assertions see) and fails unless it
// exits with code N: rc 2 orc-state phase set x.
func rc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: rc N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 || want > 255 {
		ts.Fatalf("rc: exit code %q is not a number from 0 to 255", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("rc: %s: %v", args[1], err)
		}
		got = exit.ExitCode()
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
// real processes. testscript.Main (TestMain) installs this test binary as
// "orc-state" in a testscript-main*/bin directory at the front of $PATH,
// and that copy runs cli.Main, so it is used when present; otherwise the
// command is built once into a temp dir.
func testBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("orc-state"); err == nil &&
		strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(p))), "testscript-main") {
		return p
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "orc-state-test-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "orc-state")
		if out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

var built struct {
	once sync.Once
	path string
	err  error
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
