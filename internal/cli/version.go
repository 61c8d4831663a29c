package cli

import (
	"fmt"
	"runtime/debug"
)

// VersionCmd is `version`.
type VersionCmd struct{}

// Version is set at build time with -ldflags "-X .../internal/cli.Version=v1.2.3".
var Version = ""

// Run prints the version.
func (c *VersionCmd) Run(e *Env) error {
	v := Version
	if v == "" {
		v = "devel"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	_, err := fmt.Fprintf(e.Stdout, "orc-state %s\n", v)
	return err
}
