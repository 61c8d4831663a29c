package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/version"
)

// VersionCmd is `version`.
type VersionCmd struct{}

// Run prints one line: the release, then the module version, VCS revision
// and Go version the build info carries (see version.Describe).
func (c *VersionCmd) Run(o *app.Streams) error {
	_, err := fmt.Fprintln(o.Stdout, version.Line())
	return err
}
