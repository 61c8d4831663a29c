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
	Dir         string        `name:"dir" help:"State dir (default: the main worktree root's .orc)." env:"ORC_STATE_DIR" placeholder:"DIR"`
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
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case takesGlobalValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
