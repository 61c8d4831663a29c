package cli

import (
	"reflect"
	"strings"
	"time"
)

// Globals are the flags every verb takes. They are declared here and
// nowhere else: the parser reads this struct, and so do the scans that run
// before it (firstWord, isLine) and Main's empty-environment rule.
type Globals struct {
	Dir         string        `name:"dir" help:"State dir, relative to the current directory (default: $ORC_STATE_DIR, which must be absolute, else the main worktree root's .orc)." placeholder:"DIR"`
	LockTimeout time.Duration `name:"lock-timeout" help:"How long a writer waits for the state lock." env:"ORC_LOCK_TIMEOUT" default:"5s"`
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
