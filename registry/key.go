package registry

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/portable"
)

// MaxKeyBytes bounds a sessionId, which is also a directory name.
const MaxKeyBytes = 200

// reserved are names under .orc/ that belong to the repository, not to a
// session: a session folder must never shadow them (cleanup would erase
// them), and the lock file and registry are ours.
var reserved = map[string]bool{
	"orc.json":                  true,
	"knowledge":                 true,
	"project-context.md":        true,
	"planning-calibration.json": true,
	"pr-budget.json":            true,
	"removed.jsonl":             true,
	"sync.jsonl":                true,
	"worktrees.json":            true, // the worktrees' bindings (internal/binding)
}

// IsReserved reports whether name is a per-repository file or folder of
// .orc/ that no session may use.
func IsReserved(name string) bool { return reserved[name] }

// Sanitize maps a branch name to its sessionId. First the original tool's
// rule (OriginalKey): '/' and every byte outside [A-Za-z0-9._-] become '-',
// byte by byte, so "é" (two bytes) becomes "--"; every name that rule made
// a folder Windows can use is kept, so existing folders are found. Then the
// few names Windows cannot use as a folder are mapped, the same on every
// platform (sessions move between machines):
//
//   - a device name, with or without an extension (con, prn, aux, nul,
//     com1-com9, lpt1-lpt9, any case): a '-' after the device-name part,
//     so "con" is "con-", "aux.v2" is "aux-.v2", "LPT1" is "LPT1-";
//   - a trailing dot, which Windows drops: a '-' after it, so "v1." is
//     "v1.-".
//
// Names beginning with a dot are left alone: CheckKey refuses them.
func Sanitize(branch string) string {
	id := OriginalKey(branch)
	if id == "" || id[0] == '.' {
		return id
	}
	if n := portable.DeviceStem(id); n > 0 {
		id = id[:n] + "-" + id[n:]
	}
	if strings.HasSuffix(id, ".") {
		id += "-"
	}
	return id
}

// OriginalKey is the original tool's sessionId for a branch: '/' and every
// byte outside [A-Za-z0-9._-] become '-'. It differs from Sanitize only for
// names Windows cannot use (see Sanitize); an entry keyed so by an earlier
// version is still valid and found, and doctor names it.
func OriginalKey(branch string) string {
	b := []byte(branch)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			b[i] = '-'
		}
	}
	return string(b)
}

// CheckKey refuses sessionIds that are unsafe as a folder name under .orc/
// on this machine: empty, ".", "..", a leading dot, longer than
// MaxKeyBytes, reserved, or with a byte outside [A-Za-z0-9._-]. It judges
// names that already exist (registry entries, folders); a name that is to
// be created or given as a sessionId must also pass CheckPortable.
func CheckKey(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("empty session key")
	case id == "." || id == "..":
		return fmt.Errorf("session key %q is a path traversal", id)
	case strings.HasPrefix(id, "."):
		return fmt.Errorf("session key %q begins with a dot", id)
	case len(id) > MaxKeyBytes:
		return fmt.Errorf("session key is %d bytes; the limit is %d", len(id), MaxKeyBytes)
	case IsReserved(id):
		return fmt.Errorf("session key %q is reserved for a per-repository file", id)
	}
	if OriginalKey(id) != id {
		return fmt.Errorf("session key %q has characters outside [A-Za-z0-9._-]", id)
	}
	return nil
}

// CheckPortable refuses what CheckKey refuses and, because a session may
// move to macOS or Windows, a key those cannot use as a folder: a Windows
// device name, a trailing dot, or a reserved name in another case
// ("Knowledge" is the folder knowledge/ there).
func CheckPortable(id string) error {
	if err := CheckKey(id); err != nil {
		return err
	}
	if p := portable.Problem(id); p != "" {
		return fmt.Errorf("session key %s", p)
	}
	for name := range reserved {
		if portable.Same(id, name) {
			return fmt.Errorf("session key %q is the per-repository file %q on macOS and Windows, which ignore case", id, name)
		}
	}
	return nil
}

// KeyFor returns the sessionId for a branch, refusing unsafe keys.
func KeyFor(branch string) (string, error) {
	if branch == "" {
		return "", fmt.Errorf("empty branch name")
	}
	id := Sanitize(branch)
	if err := CheckPortable(id); err != nil {
		return "", err
	}
	return id, nil
}

// Keys are the sessionIds an entry for branch may have: Sanitize's, and
// the original tool's when it differs (an entry an earlier version wrote).
func Keys(branch string) []string {
	id, orig := Sanitize(branch), OriginalKey(branch)
	if id == orig {
		return []string{id}
	}
	return []string{id, orig}
}
