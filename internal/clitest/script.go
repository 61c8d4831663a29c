package clitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/statetest"
)

// Scripts are the testscript settings every CLI scenario runs with, for
// the scenarios in dir: `orc-state ...` runs the CLI in the test process
// (inprocess.go), `exec orc-state ...` as a real process (the test binary
// as orc-state: the package's TestMain must be Main), and the scenario
// commands below. The scenarios live beside the package whose behaviour
// they pin (cmd/orc-state, internal/refsync, internal/gitx,
// internal/archive, internal/removal), so that each
// test binary holds a share of them and go test runs the shares side by
// side.
func Scripts(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
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
			"json":       validJSON,
		},
	}
}

// setupGit makes git hermetic inside every script, as in every test
// (statetest.GitIdentity).
func setupGit(env *testscript.Env) error {
	for _, kv := range statetest.GitIdentity {
		k, v, _ := strings.Cut(kv, "=")
		env.Setenv(k, v)
	}
	for k, v := range map[string]string{
		"HOME":               env.WorkDir,
		"ORC_STATE_DIR":      "",
		"ORC_ACTOR":          "",
		"ORC_SESSION":        "",
		"CLAUDE_PROJECT_DIR": "",
		"ORC_TEST_NOW":       "",
		"ORC_LOCK_TIMEOUT":   "",
		"NO_COLOR":           "",
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
	text, err := statetest.Manifest(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text+"\n"), 0o644))
}

// json [-lines] FILE fails unless FILE is one JSON value (with -lines:
// unless each of its lines is), as encoding/json reads JSON: a parser
// beside orc-state's strict reader, and in process, where an outside
// interpreter would start a process per line.
func validJSON(ts *testscript.TestScript, neg bool, args []string) {
	lines := len(args) == 2 && args[0] == "-lines"
	if neg || len(args) != 1 && !lines {
		ts.Fatalf("usage: json [-lines] FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[len(args)-1]))
	ts.Check(err)
	values := [][]byte{data}
	if lines {
		values = bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	}
	for i, v := range values {
		if !json.Valid(v) {
			ts.Fatalf("%s: value %d is not JSON: %q", args[len(args)-1], i+1, v)
		}
	}
}

// gitrepo [-b BRANCH] [-m MESSAGE] [--unborn | --bare | --clone REMOTE] [DIR]
// makes a scenario's starting repository in DIR (default: the current
// dir) without starting git: a copy of one that git made once per test
// binary with the same words and environment (statetest.MakeRepo, the
// one way the tests make a scratch repository; its repo_test.go proves the
// copies equal), the same commit id, HEAD, branch and config as the git
// commands it stands for:
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
	env, _ := scriptState(ts, false)
	if err := statetest.MakeRepo(env, ts.MkAbs("."), args); err != nil {
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
