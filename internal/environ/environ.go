// Package environ is a process environment held as a value: the
// KEY=VALUE list one run of orc-state was started with. The CLI takes it
// from the operating system once, at start-up, and every reader (state-dir
// resolution, git discovery, the git processes orc-state starts, the
// hooks' variables) looks it up here, so that a test can run the CLI in its
// own process with an environment of its own.
package environ

import (
	"os"
	"runtime"
	"strings"
)

// List is an environment: KEY=VALUE entries as os.Environ returns them.
// A later entry for a key wins over an earlier one, as it does for a
// program started with the list (os/exec).
type List []string

// OS is the process's own environment.
func OS() List { return os.Environ() }

// Lookup returns the value of key and whether it is set.
func (l List) Lookup(key string) (string, bool) {
	for i := len(l) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(l[i], "=")
		if ok && sameKey(k, key) {
			return v, true
		}
	}
	return "", false
}

// Get returns the value of key, "" when it is unset.
func (l List) Get(key string) string {
	v, _ := l.Lookup(key)
	return v
}

// With returns the list with entries (KEY=VALUE) added after its own; l
// is not changed.
func (l List) With(entries ...string) List {
	out := make(List, 0, len(l)+len(entries))
	return append(append(out, l...), entries...)
}

// Without returns the list without the keys for which drop is true; l is
// not changed.
func (l List) Without(drop func(key string) bool) List {
	out := make(List, 0, len(l))
	for _, kv := range l {
		k, _, _ := strings.Cut(kv, "=")
		if !drop(k) {
			out = append(out, kv)
		}
	}
	return out
}

// sameKey compares variable names as the platform does: Windows ignores
// their case.
func sameKey(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
