package app

// What the verbs that record or check an artifact share (the rules are
// package artifact's): HEAD, found before the lock.

import "github.com/orc-state/orc-state/internal/artifact"

// HeadSHA returns HEAD's full sha in the run's repository (artifact.Head).
func HeadSHA(sd *StateDir) (string, error) {
	d, err := sd.Dir()
	if err != nil {
		return "", err
	}
	return artifact.Head(d)
}
