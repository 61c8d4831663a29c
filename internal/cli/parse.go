package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// exitPanic carries kong's exit request out of the parser.
type exitPanic struct{ code int }

// parseAndRun parses args with kong and runs the verb they name; kong's
// exit request (after help or a version) ends it with its code.
func parseAndRun(p *Process, args []string, out *output, stderr io.Writer) (code int) {
	if len(args) == 0 {
		return refuse(stderr, "usage", fault.Usagef("orc-state <verb> [flags]; run orc-state --help for the verbs"))
	}
	model := grammarFor(args)
	parser, err := newParser(p, model, out, stderr)
	if err != nil {
		return refuse(stderr, "orc-state", fault.Wrap(fault.Software, err, "internal error"))
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
	kctx, err := parser.Parse(args)
	switch {
	case err != nil && out.failed() != nil:
		// kong's own writing (help, usage) failed: the output's error,
		// not a usage error
		return out.ended(stderr, helpVerb(args), fault.Usage, nil)
	case err != nil:
		who, refusal := parseRefusal(args, kctx, err)
		return refuse(stderr, who, refusal)
	}
	verb, g, session := verbName(kctx.Command()), globalsOf(model), sessionFlag(kctx)
	return finished(out, stderr, verb, kctx.Run(bind(p, out, stderr, g, verb, session)...))
}

// bind makes what a verb's Run may ask for, one value of each type, none
// costly until asked: its streams (*Streams), what it reads of the world
// (*World), the state dir and the worktree's binding (*StateDir, each
// found on first use), the selection of its session (*selection.Where,
// with its --session) and the transaction entry points (*Txn).
// parseAndRun hands them to kong's Run, which passes each Run the ones its
// parameters name; a plain read is called with them (runBound).
func bind(p *Process, stdout, stderr io.Writer, g *Globals, verb, session string) []any {
	o := &Streams{Stdin: p.Stdin, Stdout: stdout, Stderr: stderr, Verb: verb}
	w := &World{proc: p, wd: p.Dir}
	sd := &StateDir{flag: g.Dir, w: w}
	where := sd.where(session)
	return []any{o, w, sd, where, &Txn{verb: verb, lockTimeout: g.LockTimeout, o: o, w: w, where: where}}
}

// sessionFlag is the selected verb's --session (BranchFlag); "" when it
// has none or was not given.
func sessionFlag(kctx *kong.Context) string {
	if n := kctx.Selected(); n != nil && n.Target.IsValid() {
		if f := n.Target.FieldByName("BranchFlag"); f.IsValid() {
			return f.Interface().(BranchFlag).Session
		}
	}
	return ""
}

// parseRefusal is kong's refusal of args in orc-state's words (exit 2),
// and who refuses: the verb it belongs to, else orc-state. Its hint moves
// a stray value behind its flag, else names the verb's help.
func parseRefusal(args []string, kctx *kong.Context, err error) (who string, refusal error) {
	who = "orc-state"
	if v := failedVerb(kctx, err); v != "" {
		who += " " + v
	}
	hint := flagHint(args, err)
	if hint == "" {
		hint = "run " + who + " --help"
	}
	// kong's message quotes the argument it refused: escaped here, so that
	// a line break in it shows as \n (refuse would make it a space).
	return who, &fault.Error{Code: fault.Usage, Msg: safetext.Escape(parseMessage(err)), Hint: hint, Err: err}
}

// leadingVerb is the verb args' leading words name; "" when they name none.
func leadingVerb(args []string) string {
	first, second := leadingWords(args)
	switch {
	case isVerb(first + " " + second):
		return first + " " + second
	case isVerb(first):
		return first
	}
	return ""
}

// helpVerb names, for an error after kong's own output, the verb whose
// help or usage was printed: its leading words when they name one, else
// "help".
func helpVerb(args []string) string {
	if v := leadingVerb(args); v != "" {
		return v
	}
	return "help"
}

// newParser is kong set up for orc-state over model, a grammar from
// grammarFor, and p's environment; kong's exit requests panic with
// exitPanic.
func newParser(p *Process, model any, stdout, stderr io.Writer) (*kong.Kong, error) {
	c := model.(*cmdLine)
	k, err := kong.New(c, append(c.options(),
		kong.Resolvers(envResolver(p.Environ)),
		kong.PostBuild(verbHelps),
		kong.Name("orc-state"),
		kong.Description("The single writer of a repository's .orc/ workflow state."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitPanic{c}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: false}),
		kong.Help(printHelp), // the top level's verbs by task (help.go)
		enumsFor(model),
		decimalIntegers(),
	)...)
	if err != nil {
		return nil, err
	}
	showEnumValues(k.Model.Node)
	return k, nil
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

// verbName turns kong's "phase set <phase>" into "phase set": every
// <placeholder> cut, with the white space before it. (A regexp did it, at
// the cost of compiling one on every run.)
func verbName(cmd string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(cmd, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(cmd[open:], '>')
		if end < 0 {
			break
		}
		b.WriteString(strings.TrimRight(cmd[:open], "\t\n\f\r "))
		cmd = cmd[open+end+1:]
	}
	b.WriteString(cmd)
	return strings.TrimSpace(b.String())
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
