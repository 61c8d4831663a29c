// Package cli is orc-state's command line: the list of verbs (verbs.go),
// the global flags (globals.go), one file per verb holding its flags and
// Run (phase_set.go is "phase set"), and Main, the one place where errors
// become exit codes and the one-line messages of docs/protocol.md §18.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/atomicfile"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// exitPanic carries kong's exit request out of the parser.
type exitPanic struct{ code int }

// Main runs orc-state with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	quiet := false // a display path: silent whatever happens
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			code = truncatedUnder(r, quiet, stderr)
		}
	}()
	if len(args) == 1 && args[0] == "help" {
		args = []string{"--help"} // the original's spelling
	}
	if completionRequest() {
		return complete(stdout, stderr) // the shell asks for candidates (completion.go)
	}
	if isLine(args) {
		quiet = true
		runLine(args, stdout) // the statusline path: lenient, silent, fast
		return fault.OK
	}
	if len(args) == 2 && args[0] == "hook" && args[1] == "post-tool-use" {
		quiet = true
		runPostToolUse(stdin, stdout) // after every tool call: no parser to build
		return fault.OK
	}
	if len(args) >= 1 && args[0] == "statusline" && !wantsHelp(args) {
		quiet = true
		runStatusline(args[1:], stdin, stdout) // rendered on every turn: no parser to build
		return fault.OK
	}
	redacted := &redactingWriter{w: stderr}
	defer redacted.Flush()
	stderr = redacted // no message ever echoes a credential it was given
	for i, a := range args {
		if !utf8.ValidString(a) {
			fmt.Fprintf(stderr, "orc-state: argument %d is not valid UTF-8; nothing was written\n", i+1)
			return fault.Usage
		}
	}
	for _, name := range globalTags("env") {
		if v, ok := os.LookupEnv(name); ok && v == "" {
			os.Unsetenv(name) // set but empty means unset, as in the original
		}
	}
	if verb, cmd, ok := plain(args); ok {
		env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, G: plainGlobals(), Verb: verb}
		if err := cmd.Run(env); err != nil {
			return report(stderr, verb, err)
		}
		return fault.OK
	}
	model := grammarFor(args)
	parser, err := newParser(model, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "orc-state: internal error: %v\n", err)
		return fault.Software
	}
	defer func() {
		if r := recover(); r != nil {
			ep, ok := r.(exitPanic)
			if !ok {
				panic(r)
			}
			code = ep.code
		}
	}()
	if len(args) == 0 {
		parser.Stderr = stderr
		fmt.Fprintln(stderr, "usage: orc-state <verb> [flags]; run orc-state --help for the verbs")
		return fault.Usage
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		verb := "orc-state"
		if v := failedVerb(kctx, err); v != "" {
			verb = "orc-state " + v
		}
		fmt.Fprintf(stderr, "%s: %s\n", verb, safetext.Escape(parseMessage(err)))
		fmt.Fprintln(stderr, "hint: run "+verb+" --help")
		return fault.Usage
	}
	verb := verbName(kctx.Command())
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, G: globalsOf(model), Verb: verb}
	env.selectFlags(kctx)
	if err := kctx.Run(env); err != nil {
		return report(stderr, verb, err)
	}
	return fault.OK
}

// truncatedUnder is the exit for a panic r that ended Main. A large
// orc.json is read through a mapping (atomicfile.ReadOnly); if another
// program truncates it in place meanwhile, reading the lost pages faults.
// Nothing has been written at that point (a transaction reads and plans
// before its first write), so this is exit 3, or silence for a display.
// Any other panic is orc-state's bug and goes on.
func truncatedUnder(r any, quiet bool, stderr io.Writer) int {
	if !atomicfile.IsFault(r) {
		panic(r)
	}
	if quiet {
		return fault.OK
	}
	fmt.Fprintln(stderr, "orc-state: a file under .orc/ was truncated in place by another program while orc-state read it; nothing was written")
	fmt.Fprintln(stderr, "hint: run the command again, then orc-state doctor if it persists")
	return fault.Invalid
}

// newParser is kong set up for orc-state over model, a grammar from
// grammarFor; kong's exit requests panic with exitPanic.
func newParser(model any, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(model,
		kong.Name("orc-state"),
		kong.Description("The single writer of a repository's .orc/ workflow state."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitPanic{c}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: false}),
		enumsFor(model),
	)
}

// missingValue is kong's message for a flag given last, without its value.
var missingValue = lazyRegexp(`^(-[-\w]+): expected (?:a |an )?[\w ]*value but got "EOL" \(<EOL>\)$`)

// parseMessage is a parse error in orc-state's words where kong's would
// puzzle: "--field needs a value", not `expected string value but got "EOL"`.
func parseMessage(err error) string {
	msg := err.Error()
	if m := missingValue().FindStringSubmatch(msg); m != nil {
		return m[1] + " needs a value"
	}
	return msg
}

var placeholder = lazyRegexp(`\s*<[^>]*>`)

// verbName turns kong's "phase set <phase>" into "phase set".
func verbName(cmd string) string {
	return strings.TrimSpace(placeholder().ReplaceAllString(cmd, ""))
}

// report prints err as one line, plus its hint, and returns its exit code.
func report(w io.Writer, verb string, err error) int {
	code, msg, hint := fault.Explain(err)
	fmt.Fprintf(w, "orc-state %s: %s\n", verb, safetext.Escape(strings.ReplaceAll(msg, "\n", " ")))
	if hint != "" {
		fmt.Fprintf(w, "hint: %s\n", safetext.Escape(hint))
	}
	return code
}

// warn prints a non-fatal one-line warning on stderr.
func (e *Env) warn(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "orc-state %s: warning: %s\n", e.Verb, safetext.Escape(fmt.Sprintf(format, args...)))
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

// cwd is the working directory, or "." when it cannot be read.
func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "."
	}
	return d
}

// lazyRegexp compiles a pattern on first use, so that start-up (which every
// hook and statusline render pays) compiles nothing it does not need.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// failedVerb names the verb a parse error belongs to: from the parse
// context when kong got that far, else from the leading words of the path.
func failedVerb(kctx *kong.Context, err error) string {
	var pe *kong.ParseError
	if errors.As(err, &pe) && pe.Context != nil {
		kctx = pe.Context
	}
	if kctx == nil {
		return ""
	}
	var words []string
	for _, p := range kctx.Path {
		if p.Command != nil {
			words = append(words, p.Command.Name)
		}
	}
	return strings.Join(words, " ")
}
