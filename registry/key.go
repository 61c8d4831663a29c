package registry

import (
	"fmt"
	"strings"
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
}

// IsReserved reports whether name is a per-repository file or folder of
// .orc/ that no session may use.
func IsReserved(name string) bool { return reserved[name] }

// Sanitize maps a branch name to its sessionId: '/' and every byte outside
// [A-Za-z0-9._-] become '-'. It works on bytes, so "é" (two bytes) becomes
// "--", exactly as the original tool did; existing folders are found.
func Sanitize(branch string) string {
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

// CheckKey refuses sessionIds that are unsafe as a folder name under .orc/:
// empty, ".", "..", a leading dot, longer than MaxKeyBytes, or reserved.
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
	if Sanitize(id) != id {
		return fmt.Errorf("session key %q has characters outside [A-Za-z0-9._-]", id)
	}
	return nil
}

// KeyFor returns the sessionId for a branch, refusing unsafe keys.
func KeyFor(branch string) (string, error) {
	if branch == "" {
		return "", fmt.Errorf("empty branch name")
	}
	id := Sanitize(branch)
	if err := CheckKey(id); err != nil {
		return "", err
	}
	return id, nil
}
