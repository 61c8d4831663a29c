package clitest

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/orc-state/orc-state/internal/cli"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/pastetest"
)

// orcState is the scenario command `orc-state ARGS`: the CLI run inside
// the test process (runInProcess), failing the script on a non-zero exit
// (or, as `! orc-state`, on success), as exec does for a process.
func orcState(ts *testscript.TestScript, neg bool, args []string) {
	code := runInProcess(ts, args)
	switch {
	case neg && code == 0:
		ts.Fatalf("unexpected orc-state success")
	case !neg && code != 0:
		ts.Fatalf("orc-state exited with code %d", code)
	}
}

// Run is the one way the tests run orc-state inside the test process:
// cli.Run of p with its clocks and the statusline's wait set from its
// environment first (Clock), as the child process sets them; a value
// Clock refuses ends the run with the child's exit code 70. A nil Stdin
// reads nothing; stdout and stderr are returned, and written to p's own
// Stdout and Stderr too when it has them.
func Run(p cli.Process) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	if p.Stdin == nil {
		p.Stdin = strings.NewReader("")
	}
	p.Stdout, p.Stderr = tee(p.Stdout, &out), tee(p.Stderr, &errs)
	if err := Clock(&p); err != nil {
		fmt.Fprintln(p.Stderr, err)
		return 70, out.String(), errs.String()
	}
	code = cli.Run(p)
	return code, out.String(), errs.String()
}

// tee is w and capture, or capture alone.
func tee(w io.Writer, capture *bytes.Buffer) io.Writer {
	if w == nil {
		return capture
	}
	return io.MultiWriter(w, capture)
}

// runInProcess runs orc-state in process (Run) with the script's
// arguments, environment, working directory and stdin (the file the last
// `stdin` command named, used up as exec uses it up), its stdout and
// stderr captured for the next stdout/stderr assertions, and returns the
// exit code. Fault injection by environment needs `exec orc-state`.
func runInProcess(ts *testscript.TestScript, args []string) int {
	env, stdin := scriptState(ts, true)
	for _, name := range []string{"ORC_TEST_FAULT", "ORC_TEST_FAULT_LOG"} {
		if env.Get(name) != "" {
			ts.Fatalf("%s needs a real process: use exec orc-state", name)
		}
	}
	self, err := exec.LookPath("orc-state") // the refresher's program: this binary as orc-state
	ts.Check(err)
	ts.Check(Clock(&cli.Process{Environ: env})) // a bad clock fails the script, not the run
	code, stdout, stderr := Run(cli.Process{
		Args: args, Stdin: strings.NewReader(stdin), Stdout: ts.Stdout(), Stderr: ts.Stderr(),
		Environ: env, Dir: ts.MkAbs("."), Executable: self,
	})
	checkSuggestions(ts, stdout+"\n"+stderr)
	return code
}

// checkSuggestions holds every command the run suggested (hint:, next:
// and warning lines) to docs/protocol.md §4's promise, parsed and pasted
// into a sandboxed shell (package pastetest): every scenario checks the
// suggestions it makes orc-state print.
func checkSuggestions(ts *testscript.TestScript, text string) {
	for _, cmd := range pastetest.Commands(text) {
		if p := pastetest.Problem(cmd); p != "" {
			ts.Fatalf("suggested command %q %s", cmd, p)
		}
		if p := pastetest.Run(cmd); p != "" {
			ts.Fatalf("suggested command %q, pasted: %s", cmd, p)
		}
	}
}

// testscriptVersion is the release of github.com/rogpeppe/go-internal
// whose TestScript fields scriptState reads. TestScriptStateVersion fails
// when go.mod names another, so that an upgrade re-reads them.
const testscriptVersion = "v1.16.0"

// scriptState is the one place that reads testscript's own state: the
// script's environment (the KEY=VALUE list exec gives a process; the
// public Getenv answers one known name, not the list) and the text of the
// last `stdin FILE` command (which only exec and its kin see), which it
// clears when take is set, as exec does. testscript has no public way to
// either, so they are read from its unexported fields env and stdin, as
// laid out in testscriptVersion; the script fails loudly if another
// release is linked or the fields are not there.
func scriptState(ts *testscript.TestScript, take bool) (environ.List, string) {
	if v := linkedTestscript(); v != testscriptVersion {
		ts.Fatalf("the in-process runner reads testscript %s's fields and %s is linked: check TestScript's env and stdin fields, then update testscriptVersion", testscriptVersion, v)
	}
	fields := reflect.ValueOf(ts).Elem()
	envField, stdinField := fields.FieldByName("env"), fields.FieldByName("stdin")
	if envField.Kind() != reflect.Slice || envField.Type().Elem().Kind() != reflect.String || stdinField.Kind() != reflect.String {
		ts.Fatalf("testscript.TestScript has no env []string and stdin string fields: the in-process runner needs updating for this testscript release")
	}
	env := make(environ.List, envField.Len())
	for i := range env {
		env[i] = envField.Index(i).String()
	}
	stdin := stdinField.String()
	if take {
		reflect.NewAt(stdinField.Type(), unsafe.Pointer(stdinField.UnsafeAddr())).Elem().SetString("")
	}
	return env, stdin
}

// linkedTestscript is the version of the testscript module built into
// this binary, read from the path of its source (the module cache's
// github.com/rogpeppe/go-internal@VERSION/testscript, which -trimpath
// keeps), "" when the path names none (a vendored or replaced copy).
// Test binaries carry no module list for runtime/debug to read.
var linkedTestscript = sync.OnceValue(func() string {
	file, _ := runtime.FuncForPC(reflect.ValueOf(testscript.Run).Pointer()).FileLine(0)
	_, rest, ok := strings.Cut(filepath.ToSlash(file), "github.com/rogpeppe/go-internal@")
	if !ok {
		return ""
	}
	version, _, _ := strings.Cut(rest, "/")
	return version
})
