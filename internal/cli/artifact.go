package cli

// What artifact put and artifact check share (the rules are package
// artifact's): HEAD, found before the lock, and a sha as messages show it.

import "github.com/orc-state/orc-state/internal/artifact"

// headSHA returns HEAD's full sha in the current repository (artifact.Head).
func (e *Env) headSHA() (string, error) {
	d, err := e.Dir()
	if err != nil {
		return "", err
	}
	return artifact.Head(d)
}

// short is sha as a message shows it: its first 12 digits (the rule of
// hexid.Short, kept here so that printing needs no further import).
func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
