package cli

import (
	"io"
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/fault"
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
// costly until asked: its streams (*app.Streams), what it reads of the world
// (*app.World), the state dir and the worktree's binding (*app.StateDir, each
// found on first use), the selection of its session (with its --session)
// and the transaction entry points (*app.Txn), and the run's Process for
// the few verbs that read the terminal or the program.
// parseAndRun hands them to kong's Run, which passes each Run the ones its
// parameters name; a plain read is called with them (runBound).
func bind(p *Process, stdout, stderr io.Writer, g *Globals, verb, session string) []any {
	o := &app.Streams{Stdin: p.Stdin, Stdout: stdout, Stderr: stderr, Verb: verb}
	w := app.NewWorld(p.Environ, p.Dir, p.Stamp, p.Now)
	sd := app.NewStateDir(g.Dir, w)
	return []any{o, w, sd, app.NewTxn(verb, g.LockTimeout, o, w, sd.Where(session)), p}
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

// verbName turns kong's "phase set <phase>" into "phase set": its words
// but the <placeholders> (an argument's name, one word).
func verbName(cmd string) string {
	var words []string
	for _, w := range strings.Fields(cmd) {
		if !strings.HasPrefix(w, "<") {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}
