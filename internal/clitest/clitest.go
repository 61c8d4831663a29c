// Package clitest is the rig of the CLI's tests, the one every test
// package that runs orc-state shares (cmd/orc-state; the scenarios beside
// internal/refsync, internal/gitx, internal/archive and internal/removal;
// internal/faulttest; internal/proctest). It holds one of each:
//
//   - a test binary that doubles as orc-state, with its test seams (Main,
//     seams.go): the program `exec orc-state`, Binary and Rig.Exec run;
//   - an in-process run of the CLI (Run, inprocess.go), which sets the
//     clocks from the environment as the child process does;
//   - a scratch repository with its own home, copied from a template built
//     once per binary (Rig, rig.go), run in process (Orc) or as a process
//     (Command, Exec);
//   - the testscript setup of every scenario (Scripts, script.go) and its
//     commands (in-process orc-state, rc, gitrepo, snapshot, json, plant,
//     unpriv, mounttmpfs).
//
// What needs no CLI (the repository maker, the hermetic environment,
// sessions seeded through the transaction, manifests of a folder) is
// package statetest's, which the application packages' own tests use.
// Only tests import it.
package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/statetest"
)

// Main is a test package's TestMain, and two programs. Started as
// "orc-state" (through the copy of the test binary it puts first on $PATH),
// or under its own name with orc-state's arguments rather than go test's
// (a run in process starts the program running, os.Executable, for the
// statusline's refresher), it is orc-state, with the test seams of
// seams.go: what `exec orc-state` in a scenario, a shell line of one, and
// the Go tests that need a real process run. Otherwise it runs setup, if
// any (the package's own preparation, which orc-state never runs), then
// the tests.
func Main(m *testing.M, setup ...func()) {
	asCLI := len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-test.")
	if strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == "orc-state" || asCLI {
		installSeams()
		os.Exit(cli.Run(ChildProcess()))
	}
	for _, f := range setup {
		f()
	}
	dir, err := installOrcState()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	root = dir
	statetest.KeepTemplates(filepath.Join(dir, "templates"))
	code := m.Run()
	os.RemoveAll(dir)
	if unprivBin.path != "" {
		os.RemoveAll(filepath.Dir(unprivBin.path)) // outside root: root is not the other user's to enter
	}
	os.Exit(code)
}

// root is the test run's own temp dir (set by Main before any test runs,
// removed after the last).
var root string

// Root is the test run's own temp dir: orc-state's copy, and whatever a
// test package builds once per run (rig templates).
func Root() string { return root }

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
	bin := filepath.Join(dir, "bin", "orc-state"+statetest.ExeSuffix())
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

// HermeticEnv is statetest.HermeticEnv: the process environment with
// nothing that could steer git, orc-state, colours or tmux, HOME set to
// home, and extra appended.
func HermeticEnv(home string, extra ...string) []string { return statetest.HermeticEnv(home, extra...) }

// ChildProcess is the Process of the test binary run as orc-state: the
// real one, with the clocks and the statusline's wait Clock sets.
func ChildProcess() cli.Process {
	wd, _ := os.Getwd()
	p := cli.Process{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Environ: environ.OS(), Dir: wd}
	if err := Clock(&p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(70)
	}
	return p
}

// Clock sets, from p's environment, p's claim clock to $ORC_TEST_NOW, an
// RFC 3339 time, so scenarios can step past a lease without waiting; its
// recorded time to $ORC_TEST_STAMP, so that fault injection can compare a
// repaired state with an uninterrupted run's byte for byte; and the
// statusline's wait for git to $ORC_TEST_PLACE_WAIT, so a scenario can make
// a cold render wait longer for git than production's few tens of
// milliseconds. Only the tests read these variables.
func Clock(p *cli.Process) error {
	for _, c := range []struct {
		name string
		set  *func() time.Time
	}{{"ORC_TEST_NOW", &p.Now}, {"ORC_TEST_STAMP", &p.Stamp}} {
		if v := p.Environ.Get(c.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return fmt.Errorf("%s=%q is not an RFC 3339 time: %v", c.name, v, err)
			}
			*c.set = func() time.Time { return t }
		}
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

// Binary returns an orc-state executable for the tests that run real
// processes: the copy of the test binary that Main installed first on
// $PATH.
func Binary(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("orc-state")
	if err != nil {
		t.Fatalf("orc-state is not on $PATH: %v", err)
	}
	return p
}
