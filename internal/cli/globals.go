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
type Globals struct {
	Dir         string        `name:"dir" help:"State dir, relative to the current directory (default: $ORC_STATE_DIR, which must be absolute, else the main worktree root's .orc)." placeholder:"DIR"`
	LockTimeout time.Duration `name:"lock-timeout" help:"How long a writer waits for the state lock ($$ORC_LOCK_TIMEOUT)." envvar:"ORC_LOCK_TIMEOUT" default:"5s"`
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
