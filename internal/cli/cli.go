// Package cli is orc-state's command line: the list of verbs (verbs.go),
// the global flags (globals.go), one file per verb holding its flags and
// Run (phase_set.go is "phase set"), and Run, the one place where errors
// become exit codes and the one-line messages of docs/protocol.md §18.
// Everything a run reads from the world comes in its Process
// (process.go): Main fills one from the operating system, and the tests
// run the CLI inside their own process with one of their own.
package cli

import (
	"errors"
	"fmt"
	"io"
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

// Run runs orc-state as p describes and returns the exit code.
func Run(proc Process) (code int) {
	p := proc.settled()
	args, stdout, stderr := p.Args, p.Stdout, p.Stderr
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
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-V") {
		args = []string{"version"}
	}
	if completionRequest(p) {
		return complete(p, stdout, stderr) // the shell asks for candidates (completion.go)
	}
	if n, ok := fileLimit(); ok && n < minOpenFiles {
		return tooFewFiles(args, n, stderr)
	}
	if isLine(args) {
		quiet = true
		runLine(p, args) // the statusline path: lenient, silent, fast
		return fault.OK
	}
	if len(args) == 2 && args[0] == "hook" && args[1] == "post-tool-use" {
		quiet = true
		runPostToolUse(p) // after every tool call: no parser to build
		return fault.OK
	}
	if len(args) >= 1 && args[0] == "statusline" && !wantsHelp(args) {
		quiet = true
		runStatusline(p, args[1:]) // rendered on every turn: no parser to build
		return fault.OK
	}
	redacted := &redactingWriter{w: stderr}
	defer redacted.Flush()
	stderr = redacted // no message ever echoes a credential it was given
	out := &output{w: stdout}
	stdout = out // a write that fails is exit 7, whoever wrote
	for i, a := range args {
		if !utf8.ValidString(a) {
			fmt.Fprintf(stderr, "orc-state: argument %d is not valid UTF-8; nothing was written\n", i+1)
			return fault.Usage
		}
	}
	warnUnknownEnv(p, args, stderr) // a misspelt ORC_* variable is said, once (envwarn.go)
	if verb, cmd, ok := plain(p, args); ok {
		env := newEnv(p, stdout, stderr, plainGlobals(), verb)
		if err := cmd.Run(env); err != nil {
			return out.ended(stderr, verb, report(stderr, verb, err), err)
		}
		return out.ended(stderr, verb, fault.OK, nil)
	}
	model := grammarFor(args)
	parser, err := newParser(p, model, stdout, stderr)
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
			code = out.ended(stderr, helpVerb(args), ep.code, nil) // help that was not printed is exit 7
		}
	}()
	if len(args) == 0 {
		parser.Stderr = stderr
		fmt.Fprintln(stderr, "usage: orc-state <verb> [flags]; run orc-state --help for the verbs")
		return fault.Usage
	}
	kctx, err := parser.Parse(args)
	if err != nil && out.failed() != nil {
		// kong's own writing (help, usage) failed: the output's error,
		// not a usage error
		return out.ended(stderr, helpVerb(args), fault.Usage, nil)
	}
	if err != nil {
		verb := "orc-state"
		if v := failedVerb(kctx, err); v != "" {
			verb = "orc-state " + v
		}
		fmt.Fprintf(stderr, "%s: %s\n", verb, safetext.Escape(parseMessage(err)))
		if hint := flagHint(args, err); hint != "" {
			fmt.Fprintln(stderr, "hint: "+safetext.Escape(hint))
		} else {
			fmt.Fprintln(stderr, "hint: run "+verb+" --help")
		}
		return fault.Usage
	}
	verb := verbName(kctx.Command())
	env := newEnv(p, stdout, stderr, globalsOf(model), verb)
	env.selectFlags(kctx)
	if err := kctx.Run(env); err != nil {
		return out.ended(stderr, verb, report(stderr, verb, err), err)
	}
	return out.ended(stderr, verb, fault.OK, nil)
}

// helpVerb names, for an error after kong's own output, the verb whose
// help or usage was printed: its leading words when they name one, else
// "help".
func helpVerb(args []string) string {
	first, second := leadingWords(args)
	switch {
	case isVerb(first + " " + second):
		return first + " " + second
	case isVerb(first):
		return first
	}
	return "help"
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
	display := isLine(args) || len(args) >= 1 && args[0] == "statusline" && !wantsHelp(args) ||
		len(args) == 2 && args[0] == "hook" && args[1] == "post-tool-use"
	if display {
		return fault.OK
	}
	verb := "orc-state"
	first, second := leadingWords(args)
	switch {
	case isVerb(first + " " + second):
		verb += " " + first + " " + second
	case isVerb(first):
		verb += " " + first
	}
	fmt.Fprintf(stderr, "%s: the process may have only %d files open (ulimit -n); orc-state needs %d; nothing was written\n", verb, n, minOpenFiles)
	fmt.Fprintln(stderr, "hint: raise the limit (for example ulimit -n 1024) and run the command again")
	if len(args) >= 1 && args[0] == "hook" {
		return fault.OK // hooks never fail the host
	}
	return fault.Invalid
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
// grammarFor, and p's environment; kong's exit requests panic with
// exitPanic.
func newParser(p *Process, model any, stdout, stderr io.Writer) (*kong.Kong, error) {
	k, err := kong.New(model,
		kong.Resolvers(envResolver(p.Environ)),
		kong.Name("orc-state"),
		kong.Description("The single writer of a repository's .orc/ workflow state."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitPanic{c}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: false}),
		kong.Help(printHelp), // the top level's verbs by task (help.go)
		enumsFor(model),
		decimalIntegers(),
	)
	if err != nil {
		return nil, err
	}
	showEnumValues(k.Model.Node)
	return k, nil
}

// showEnumValues gives every enum flag without a placeholder of its own
// its values as the placeholder, so that help, usage lines and kong's
// messages show --status=pending|red|... rather than --status=STRING. An
// empty value (the "not given" of an optional flag) is not shown.
func showEnumValues(n *kong.Node) {
	for _, f := range n.Flags {
		if f.Enum == "" || f.Tag.PlaceHolder != "" {
			continue
		}
		var values []string
		for _, v := range f.EnumSlice() {
			if v != "" {
				values = append(values, v)
			}
		}
		f.PlaceHolder = strings.Join(values, "|")
	}
	for _, c := range n.Children {
		showEnumValues(c)
	}
}

// takesValue reports whether arg is a flag of cmd (or a global one) whose
// value is the next argument: --note, not --force, not --note=x.
func takesValue(cmd *kong.Node, arg string) bool {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	for n := cmd; n != nil; n = n.Parent {
		for _, f := range n.Flags {
			if f.Name == name {
				return !f.IsBool()
			}
		}
	}
	return false
}

// unexpectedArg is kong's message for a positional argument the verb does
// not take.
var unexpectedArg = lazyRegexp(`^unexpected argument (.+)$`)

// flagHint is the hint for an argument given where a flag's value belongs:
// "slice set 3 red" is "slice set 3 --status red", since red is a value of
// --status (and of no other flag of the verb). It names the command with
// the argument moved behind its flag; "" when err is no such case.
func flagHint(args []string, err error) string {
	m := unexpectedArg().FindStringSubmatch(err.Error())
	var pe *kong.ParseError
	if m == nil || !errors.As(err, &pe) || pe.Context == nil || pe.Context.Selected() == nil {
		return ""
	}
	word := m[1]
	var owner *kong.Flag
	for _, f := range pe.Context.Selected().Flags {
		for _, v := range f.EnumSlice() {
			if v == word && v != "" {
				if owner != nil && owner != f {
					return "" // a value of two flags: no guess
				}
				owner = f
			}
		}
	}
	if owner == nil {
		return ""
	}
	// The word kong did not expect is its last occurrence that is not a
	// flag's value (slice set 3 red --note red: the first red).
	at := -1
	for i, a := range args {
		if a == word && (i == 0 || !takesValue(pe.Context.Selected(), args[i-1])) {
			at = i
		}
	}
	var b strings.Builder
	b.WriteString("orc-state")
	for i, a := range args {
		if i == at {
			b.WriteString(" --" + owner.Name)
		}
		b.WriteString(" " + safetext.Quote(a))
	}
	return fmt.Sprintf("%s is a value of --%s: %s", safetext.Quote(word), owner.Name, b.String())
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
