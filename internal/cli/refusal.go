package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

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
