package clitest

import (
	"bytes"
	"io"
	"os/exec"
	"reflect"
	"strings"
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

// runInProcess runs cli.Run with the script's arguments, environment,
// working directory and stdin (the file the last `stdin` command named,
// used up as exec uses it up), its stdout and stderr captured for the
// next stdout/stderr assertions, and returns the exit code. The clocks
// and the statusline's wait come from the script's environment, as in the
// child process (Clock); fault injection by environment needs
// `exec orc-state`.
func runInProcess(ts *testscript.TestScript, args []string) int {
	env := scriptEnviron(ts)
	for _, name := range []string{"ORC_TEST_FAULT", "ORC_TEST_FAULT_LOG"} {
		if env.Get(name) != "" {
			ts.Fatalf("%s needs a real process: use exec orc-state", name)
		}
	}
	self, err := exec.LookPath("orc-state") // the refresher's program: this binary as orc-state
	ts.Check(err)
	var out, errs bytes.Buffer
	p := cli.Process{
		Args: args, Stdin: takeStdin(ts), Stdout: io.MultiWriter(ts.Stdout(), &out), Stderr: io.MultiWriter(ts.Stderr(), &errs),
		Environ: env, Dir: ts.MkAbs("."), Executable: self,
	}
	ts.Check(Clock(&p))
	code := cli.Run(p)
	checkSuggestions(ts, out.String()+"\n"+errs.String())
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

// scriptEnviron is the script's environment: what its setup and `env`
// commands made it. testscript keeps the list to itself (exec passes it to
// the process), so it is read from its field; fieldOf fails the script
// loudly if a testscript release renames it.
func scriptEnviron(ts *testscript.TestScript) environ.List {
	f := fieldOf(ts, "env", reflect.Slice)
	env := make(environ.List, f.Len())
	for i := range env {
		env[i] = f.Index(i).String()
	}
	return env
}

// takeStdin returns the script's pending stdin and clears it, as exec
// does: a `stdin FILE` command applies to the next command only.
func takeStdin(ts *testscript.TestScript) *strings.Reader {
	f := fieldOf(ts, "stdin", reflect.String)
	text := f.String()
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetString("")
	return strings.NewReader(text)
}

// fieldOf is the unexported field name of ts, of the kind want.
func fieldOf(ts *testscript.TestScript, name string, want reflect.Kind) reflect.Value {
	f := reflect.ValueOf(ts).Elem().FieldByName(name)
	if !f.IsValid() || f.Kind() != want {
		ts.Fatalf("testscript.TestScript has no %s field of kind %v: the in-process runner needs updating for this testscript release", name, want)
	}
	return f
}
