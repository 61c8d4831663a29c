package cli

import (
	"fmt"
	"reflect"

	"github.com/alecthomas/kong"

	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
)

// Globals are the flags every verb takes. They are declared here and
// nowhere else: the parser reads this struct, and so do the scans that run
// before it (firstWord, isLine) and Main's empty-environment rule.
// Their help is globalsHelp.
type Globals struct {
	Dir         string        `name:"dir" placeholder:"DIR"`
	LockTimeout time.Duration `name:"lock-timeout" envvar:"ORC_LOCK_TIMEOUT" default:"5s"`
}

// globalsHelp is the help of Globals' fields, in their order. Every verb
// has these flags, and kong parses each tag rune by rune on every run:
// their help is given to the flags after the build (sharedFlagsHelp)
// rather than carried in the tags.
var globalsHelp = []string{
	"State dir, relative to the current directory (default: $ORC_STATE_DIR, which must be absolute, else the main worktree root's .orc).",
	"How long a writer waits for the state lock ($ORC_LOCK_TIMEOUT).",
}

// sharedFlagsHelp gives the flags of Globals and of every verb's BranchFlag
// of k's model their help (globalsHelp, branchFlagHelp), as written: after
// kong.New, so that kong does not interpolate it.
func sharedFlagsHelp(k *kong.Kong) {
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		if n.Target.IsValid() {
			embeddedHelp(n, n.Target)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(k.Model.Node)
}

// embeddedHelp gives n's flags that are fields of a Globals or a BranchFlag
// embedded in v (at any depth) their help.
func embeddedHelp(n *kong.Node, v reflect.Value) {
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Type() {
		case reflect.TypeFor[Globals]():
			giveHelp(n, f, globalsHelp)
		case reflect.TypeFor[BranchFlag]():
			giveHelp(n, f, branchFlagHelp)
		default:
			if f.Kind() == reflect.Struct && v.Type().Field(i).Anonymous {
				embeddedHelp(n, f)
			}
		}
	}
}

// giveHelp gives each flag of n that is a field of strct the help of that
// field, help[i] for field i.
func giveHelp(n *kong.Node, strct reflect.Value, help []string) {
	for _, f := range n.Flags {
		if !f.Target.CanAddr() {
			continue
		}
		for i := range help {
			if field := strct.Field(i); field.CanAddr() && field.Addr().Pointer() == f.Target.Addr().Pointer() && field.Type() == f.Target.Type() {
				f.Help, f.OrigHelp = help[i], help[i]
			}
		}
	}
}

// envResolver gives a flag tagged envvar:"NAME" the value of NAME in the
// run's environment when the command line does not set it: kong's own env
// tag would read the operating system's environment, not the run's.
func envResolver(env environ.List) kong.Resolver {
	return kong.ResolverFunc(func(_ *kong.Context, _ *kong.Path, flag *kong.Flag) (any, error) {
		name := flag.Tag.Get("envvar")
		if name == "" {
			return nil, nil
		}
		v, ok := env.Lookup(name)
		if !ok {
			return nil, nil
		}
		scratch := reflect.New(flag.Target.Type()).Elem() // refused here, the variable is named
		scan := kong.ScanFromTokens(kong.Token{Type: kong.FlagValueToken, Value: v})
		if err := flag.Mapper.Decode(&kong.DecodeContext{Value: flag.Value, Scan: scan}, scratch); err != nil {
			return nil, fmt.Errorf("%w (from envar %s=%q)", err, name, v)
		}
		return v, nil
	})
}

// globalTags returns one tag of every global flag, in declaration order.
func globalTags(key string) []string {
	t := reflect.TypeFor[Globals]()
	out := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		out = append(out, t.Field(i).Tag.Get(key))
	}
	return out
}

// takesGlobalValue reports whether arg is a global flag whose value is the
// next argument (--dir DIR; not --dir=DIR).
func takesGlobalValue(arg string) bool {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok {
		return false
	}
	t := reflect.TypeFor[Globals]()
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Tag.Get("name") == name && f.Type.Kind() != reflect.Bool {
			return true
		}
	}
	return false
}

// firstWord is the first argument that is not a global flag or its value.
func firstWord(args []string) string {
	first, _ := leadingWords(args)
	return first
}

// leadingWords returns the first argument that is not a global flag or its
// value, and the argument after it if that one is a plain word too (global
// flags between them aside): "slice list" for [--dir D slice list], but no
// second word for [slice --status red list].
func leadingWords(args []string) (first, second string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case takesGlobalValue(a):
			i++
		case isGlobalFlag(a):
		case strings.HasPrefix(a, "-"):
			if first != "" {
				return first, ""
			}
		case first == "":
			first = a
		default:
			return first, a
		}
	}
	return first, ""
}

// isGlobalFlag reports whether arg is a global flag with its value joined
// (--dir=DIR), or a global flag that takes none.
func isGlobalFlag(arg string) bool {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok {
		return false
	}
	name, _, _ = strings.Cut(name, "=")
	for _, n := range globalTags("name") {
		if n == name {
			return true
		}
	}
	return false
}
