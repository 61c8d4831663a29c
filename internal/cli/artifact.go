package cli

// What artifact put and artifact check share (the rules are package
// artifact's): HEAD, found before the lock.

import (
	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/artifact"
)

// headSHA returns HEAD's full sha in the current repository (artifact.Head).
func headSHA(sd *app.StateDir) (string, error) {
	d, err := sd.Dir()
	if err != nil {
		return "", err
	}
	return artifact.Head(d)
}
