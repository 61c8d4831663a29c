// Package clitest is what the test packages of the orc-state command share
// (cmd/orc-state, whose tests run the CLI mostly in process; the scenarios
// beside internal/refsync, internal/gitx, internal/archive and internal/removal;
// internal/faulttest; and internal/proctest, whose tests need real
// processes): a test binary that
// doubles as orc-state, with its test seams; the hermetic environment its
// processes and git run in; a manifest of a folder, to compare states byte
// for byte; the scenario commands (Scripts, script.go); and rigs, scratch
// repositories for table tests that run the CLI in process (rig.go). Only
// tests import it.
package clitest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/environ"
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
	bin := filepath.Join(dir, "bin", "orc-state"+ExeSuffix())
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

// ExeSuffix is the executable suffix of the platform.
func ExeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

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

// HermeticEnv is the process environment with nothing that could steer
// git, orc-state, colours or tmux, a fixed git identity and dates, HOME
// set to home, and extra appended.
func HermeticEnv(home string, extra ...string) []string {
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

// Manifest lists every entry under root, sorted: its type, path, and the
// sha256 of a file or the target of a link.
func Manifest(root string) (string, error) {
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

// ManifestDiff shows the lines of two manifests (Manifest) that differ:
// "- " before a line only want has, "+ " before one only got has.
func ManifestDiff(want, got string) string {
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
