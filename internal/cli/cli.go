// Package cli is orc-state's command line: the list of verbs (verbs.go),
// the global flags (globals.go), one file per verb holding its flags and
// Run (phase_set.go is "phase set"), whose parameters name what it needs
// of the run (bind, parse.go), and Run, the one place where errors become
// exit codes and the one-line messages of docs/protocol.md §18. A verb's
// Run parses, makes one call into internal/app, which does the work, and
// prints what it returns; of the product it imports only internal/app and
// the packages that parse or print (docs/architecture.md, "Layers").
// Everything a run reads from the world comes in its Process
// (process.go): Main fills one from the operating system, and the tests
// run the CLI inside their own process with one of their own.
package cli

import (
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// Run runs orc-state as p describes and returns the exit code. Every
// refusal is printed by refuse, as fault.Explain describes it.
func Run(proc Process) (code int) {
	p := proc.settled()
	args, stderr := spelled(p.Args), p.Stderr
	quiet := false // a display path: silent whatever happens
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			code = truncatedUnder(r, quiet, stderr)
		}
	}()
	if completionRequest(p) {
		return complete(p, p.Stdout, stderr) // the shell asks for candidates (completion.go)
	}
	if n, ok := fileLimit(); ok && n < minOpenFiles {
		return tooFewFiles(args, n, stderr)
	}
	if display := displayPath(args); display != nil {
		quiet = true
		display(p, args)
		return fault.OK
	}
	redacted := app.NewRedactingWriter(stderr)
	defer redacted.Flush()
	stderr = redacted           // no message ever echoes a credential it was given
	out := &output{w: p.Stdout} // a write that fails is exit 7, whoever wrote
	if err := argsProblem(args); err != nil {
		return refuse(stderr, "orc-state", err)
	}
	warnUnknownEnv(p, args, stderr) // a misspelt ORC_* variable is said, once (envwarn.go)
	if verb, cmd, ok := plain(p, args); ok {
		return finished(out, stderr, verb, runBound(cmd, bind(p, out, stderr, plainGlobals(), verb, "")...))
	}
	return parseAndRun(p, args, out, stderr)
}

// spelled is args with the original's spellings of help and of the
// version as orc-state's own.
func spelled(args []string) []string {
	switch {
	case len(args) == 1 && args[0] == "help":
		return []string{"--help"}
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-V"):
		return []string{"version"}
	}
	return args
}

// displayPath is how a display verb that runs on every turn or tool call
// runs without the parser: line, statusline and hook post-tool-use
// (docs/performance.md, "The command line"). It is their only way: kong
// knows them for their --help alone. nil for any other command line.
func displayPath(args []string) func(p *Process, args []string) {
	switch {
	case isLine(args):
		return runLine // lenient, silent, fast
	case len(args) == 2 && args[0] == "hook" && args[1] == "post-tool-use":
		return func(p *Process, _ []string) { runPostToolUse(p) } // after every tool call
	case len(args) >= 1 && args[0] == "statusline" && !wantsHelp(args):
		return func(p *Process, args []string) { runStatusline(p, args[1:]) } // rendered on every turn
	}
	return nil
}

// argsProblem refuses an argument that is not valid UTF-8 (exit 2): it
// would be rewritten on its way to a file.
func argsProblem(args []string) error {
	for i, a := range args {
		if !utf8.ValidString(a) {
			return fault.Usagef("argument %d is not valid UTF-8; nothing was written", i+1)
		}
	}
	return nil
}

// finished is the exit of verb's run that returned err: its refusal
// reported, else 0; exit 7 when what it printed was not written.
func finished(out *output, stderr io.Writer, verb string, err error) int {
	code := fault.OK
	if err != nil {
		code = report(stderr, verb, err)
	}
	return out.ended(stderr, verb, code, err)
}

// minOpenFiles is the open-file limit (ulimit -n) below which orc-state
// does not start: the Go runtime needs a few descriptors of its own (and
// dies, exit 2, when it cannot get them), a transaction holds the lock
// and the file it writes, and git is run through pipes.
const minOpenFiles = 16

// tooFewFiles refuses to run under an open-file limit below minOpenFiles,
// naming the limit (the cause) rather than failing later on whatever file
// comes first: exit 3 with nothing written; a display path (line,
// statusline, hook post-tool-use) stays silent and a hook exits 0, as
// they always do.
func tooFewFiles(args []string, n int64, stderr io.Writer) int {
	if displayPath(args) != nil {
		return fault.OK
	}
	who := strings.TrimSpace("orc-state " + leadingVerb(args))
	code := refuse(stderr, who, fault.Invalidf("the process may have only %d files open (ulimit -n); orc-state needs %d; nothing was written", n, minOpenFiles).
		WithHint("raise the limit (for example ulimit -n 1024) and run the command again"))
	if len(args) >= 1 && args[0] == "hook" {
		return fault.OK // hooks never fail the host
	}
	return code
}

// truncatedUnder is the exit for a panic r that ended Main: a file read
// through a mapping truncated under it (app.TruncatedRead) is exit 3, or
// silence for a display. Any other panic is orc-state's bug and goes on.
func truncatedUnder(r any, quiet bool, stderr io.Writer) int {
	err := app.TruncatedRead(r)
	if err == nil {
		panic(r)
	}
	if quiet {
		return fault.OK
	}
	return refuse(stderr, "orc-state", err)
}

// report prints err, verb's refusal, as refuse does under "orc-state
// <verb>", and returns its exit code.
func report(w io.Writer, verb string, err error) int { return refuse(w, "orc-state "+verb, err) }

// refuse is the one way a refusal reaches stderr: fault.Explain's message
// under who ("orc-state <verb>"; "orc-state" before a verb is known;
// "usage" for the bare synopsis), on one line, then its hint, both
// escaped. It returns Explain's exit code.
func refuse(w io.Writer, who string, err error) int {
	code, msg, hint := fault.Explain(err)
	fmt.Fprintf(w, "%s: %s\n", who, safetext.Escape(strings.ReplaceAll(msg, "\n", " ")))
	if hint != "" {
		fmt.Fprintf(w, "hint: %s\n", safetext.Escape(hint))
	}
	return code
}

// wantsHelp reports whether args ask for help anywhere.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--help" || a == "-h" {
			return true
		}
	}
	return false
}

func isLine(args []string) bool {
	line := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--help" || a == "-h":
			return false // kong prints line's help
		case line:
			// after the verb every other argument is ignored
		case takesGlobalValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		case a == "line":
			line = true
		default:
			return false
		}
	}
	return line
}

// lazyRegexp compiles a pattern on first use, so that start-up (which every
// hook and statusline render pays) compiles nothing it does not need.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
