package clitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/statetest"
)

// A Rig is the scratch git repository of every Go test that drives the
// CLI: its work tree, and its own home and temp dir (the work tree's
// parent) in the hermetic environment orc-state and git run in there.
// Orc runs orc-state inside the test process (Run), for the tables over
// many inputs, where a process per call would be most of the cost;
// Command and Exec run it as a real process (this test binary as
// orc-state), for the tests of kills, races and hooks. A rig starts as a
// copy of a template that is built once per test binary, so a table of a
// hundred rows, or a soak of fifty writers, builds one repository, not a
// hundred.
type Rig struct {
	T       testing.TB
	Dir     string // the work tree
	Env     environ.List
	Timeout time.Duration // how long Exec waits for a process (0: ProcessTimeout)
}

// rigTemplates build the repositories rigs start from, in the work tree
// they are given.
var rigTemplates = map[string]func(r *Rig){
	// git: one commit on main (gitrepo's repository).
	"git": func(r *Rig) { r.repo() },
	// main: one commit on main and its session (flow, nine phases).
	"main": func(r *Rig) {
		r.repo()
		if out := r.MustOrc("", "init", "--command", "flow", "--total-phases", "9"); out != "main\n" {
			r.T.Fatalf("init printed %q, want main", out)
		}
	},
	// collision: the session of feat/x (sessionId feat-x, a one-slice
	// ledger), checked out on a branch named feat-x.
	"collision": func(r *Rig) {
		r.repo()
		r.Git("checkout", "-q", "-b", "feat/x")
		r.MustOrc("", "init", "--command", "flow", "--total-phases", "3")
		r.MustOrc(`{"slices": [{"id": 1, "title": "one"}]}`, "slice", "init", "-")
		r.Git("checkout", "-q", "-b", "feat-x")
	},
}

// repo makes the rig's repository, one commit on main: the gitrepo
// scenario command's (statetest.MakeRepo).
func (r *Rig) repo() {
	r.T.Helper()
	if err := statetest.MakeRepo(r.Env, r.Dir, nil); err != nil {
		r.T.Fatalf("%v", err)
	}
}

// built holds each template's folder once made, under Root().
var built sync.Map // name → func() (string, error)

// NewRig returns a rig whose work tree is a fresh copy of template.
func NewRig(t testing.TB, template string) *Rig {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	build, ok := rigTemplates[template]
	if !ok {
		t.Fatalf("no rig template %q", template)
	}
	once, _ := built.LoadOrStore(template, sync.OnceValues(func() (dir string, err error) {
		defer func() {
			if r := recover(); r != nil {
				f, ok := r.(buildFailure)
				if !ok {
					panic(r)
				}
				err = f
			}
		}()
		dir = filepath.Join(Root(), "rigs", template)
		if err := os.MkdirAll(filepath.Join(dir, "repo"), 0o755); err != nil {
			return "", err
		}
		build(&Rig{T: builder{t}, Dir: filepath.Join(dir, "repo"), Env: RigEnv(dir)})
		return dir, nil
	}))
	from, err := once.(func() (string, error))()
	if err != nil {
		t.Fatalf("rig template %s: %v", template, err)
	}
	to := t.TempDir()
	if err := statetest.CopyTree(from, to); err != nil {
		t.Fatal(err)
	}
	return &Rig{T: t, Dir: filepath.Join(to, "repo"), Env: RigEnv(to)}
}

// builder is the testing.TB a template is built with: a failure there is
// the template's, returned to every test that uses it (buildFailure), not
// the failure of whichever test happened to build it.
type builder struct{ testing.TB }

type buildFailure string

func (f buildFailure) Error() string { return string(f) }

func (builder) Helper() {}

func (builder) Fatalf(format string, args ...any) { panic(buildFailure(fmt.Sprintf(format, args...))) }

// RigEnv is the environment of a rig whose home (and temp dir) is dir.
func RigEnv(dir string) environ.List {
	return environ.List(statetest.HermeticEnv(dir, "TMPDIR="+dir))
}

// Orc runs orc-state in the rig, in this process (Run), and returns its
// exit code and output.
func (r *Rig) Orc(stdin string, args ...string) (code int, stdout, stderr string) {
	return Run(cli.Process{Args: args, Stdin: strings.NewReader(stdin), Environ: r.Env, Dir: r.Dir})
}

// MustOrc is Orc that fails the test unless orc-state exits 0; it returns
// stdout.
func (r *Rig) MustOrc(stdin string, args ...string) string {
	r.T.Helper()
	code, stdout, stderr := r.Orc(stdin, args...)
	if code != 0 {
		r.T.Fatalf("orc-state %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// ProcessTimeout bounds a real orc-state process that Exec runs, unless
// the rig's Timeout says otherwise: past it the process is killed and the
// test fails.
const ProcessTimeout = 2 * time.Minute

// Command is orc-state ARGS as a real process in the rig (the test
// binary as orc-state, Binary), with stdin, not yet started: for a test
// that starts, races or kills it itself. ctx kills it when done.
func (r *Rig) Command(ctx context.Context, stdin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, Binary(r.T), args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// Exec runs orc-state ARGS as a real process in the rig and returns its
// exit code and output; a process that cannot start or outlives the
// rig's Timeout fails the test.
func (r *Rig) Exec(stdin string, args ...string) (code int, stdout, stderr string) {
	r.T.Helper()
	timeout := r.Timeout
	if timeout == 0 {
		timeout = ProcessTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := r.Command(ctx, stdin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.T.Fatalf("orc-state %s did not finish in %v", strings.Join(args, " "), timeout)
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		r.T.Fatalf("orc-state %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

// MustExec is Exec that fails the test unless orc-state exits 0; it
// returns stdout.
func (r *Rig) MustExec(stdin string, args ...string) string {
	r.T.Helper()
	code, stdout, stderr := r.Exec(stdin, args...)
	if code != 0 {
		r.T.Fatalf("orc-state %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// Git runs git in the rig and returns its stdout.
func (r *Rig) Git(args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.T.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}
