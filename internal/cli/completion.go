package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/alecthomas/kong"
	"github.com/willabides/kongplete"

	"github.com/orc-state/orc-state/internal/completion"
)

// Shell completion works the way kongplete (over posener/complete) does:
// the shell runs orc-state itself with the command line in $COMP_LINE, and
// orc-state answers from its kong grammar (verbs, sub-verbs, flags, enum
// values), so completion can never offer a verb that does not exist, and
// from the state for the values a predictor tag names (sessionIds,
// branches, slice ids, decision keys: completion.Predictors). The
// scripts below only register orc-state as its own completer; nothing is
// computed unless $COMP_LINE asks.

// CompletionCmd is `completion`.
type CompletionCmd struct {
	Shell string `arg:"" optional:"" enum:"bash,zsh,fish" default:"bash" help:"The shell: bash (the default), zsh or fish."`
}

// Run prints the completion script of the shell.
func (c *CompletionCmd) Run(o *app.Streams) error {
	_, err := io.WriteString(o.Stdout, completion.Scripts[c.Shell])
	return err
}

// completionRequest reports whether the shell asked orc-state to complete
// a command line: $COMP_LINE is set and names orc-state. kongplete reads
// $COMP_LINE and $COMP_POINT from the operating system's environment
// itself, so completion is a real process's (the shell runs orc-state):
// a run given another environment (a test's) completes nothing.
func completionRequest(p *Process) bool {
	if p.getenv("COMP_LINE") != os.Getenv("COMP_LINE") {
		return false
	}
	line := p.getenv("COMP_LINE")
	first, _, _ := strings.Cut(strings.TrimLeft(line, " \t"), " ")
	return first != "" && strings.TrimSuffix(filepath.Base(first), ".exe") == "orc-state"
}

// complete prints the candidates for $COMP_LINE (up to $COMP_POINT), one
// per line, and returns the exit code. The grammar is the one the line's
// words name (grammarFor: a verb, a family, or all of them while the first
// word is typed), so a Tab costs what running the verb's parser costs.
func complete(p *Process, stdout, stderr io.Writer) (code int) {
	line := p.getenv("COMP_LINE")
	if n, err := strconv.Atoi(p.getenv("COMP_POINT")); err == nil && n >= 0 && n < len(line) {
		line = line[:n]
	}
	words := strings.Fields(line)
	if len(words) > 0 {
		words = words[1:] // the program's name
	}
	parser, err := newParser(p, grammarFor(words), stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "orc-state: internal error: %v\n", err)
		return 70
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
	offerNoEmptyValue(parser.Model.Node)
	kongplete.Complete(parser, kongplete.WithExitFunc(func(c int) { panic(exitPanic{c}) }),
		kongplete.WithPredictors(completion.Predictors(p.Dir, p.Environ)))
	return 0
}

// offerNoEmptyValue drops the empty value from the enums of this parser,
// which completes and never parses (enumValues).
func offerNoEmptyValue(n *kong.Node) {
	for _, f := range n.Flags {
		if f.Enum != "" {
			f.Enum = strings.Join(enumValues(f), ",")
		}
	}
	for _, c := range n.Children {
		offerNoEmptyValue(c)
	}
}
