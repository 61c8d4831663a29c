package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/artifact"
	"github.com/orc-state/orc-state/internal/selection"
)

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/ (.json, .md or .txt)."`
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or missing.
func (c *ArtifactCheckCmd) Run(o *app.Streams, sd *app.StateDir, where *selection.Where) error {
	if err := artifact.CheckName(c.Name, false); err != nil {
		return err
	}
	d, _, s, err := where.Session(c.Branch)
	if err != nil {
		return err
	}
	head, err := app.HeadSHA(sd)
	if err != nil {
		return err
	}
	v, err := artifact.Judge(d, s.SessionID, c.Name, head)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "%s\t%s\t%s\n", v.State, v.Stamp, head)
	return v.Err
}
