package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
)

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/ (.json, .md or .txt)."`
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or
// missing (app.ArtifactCheck), printing its state, its stamp and HEAD.
func (c *ArtifactCheckCmd) Run(o *app.Streams, sd *app.StateDir, txn *app.Txn) error {
	v, err := app.ArtifactCheck(sd, txn, c.Branch, c.Name)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "%s\t%s\t%s\n", v.State, v.Stamp, v.Head)
	return v.Err
}
