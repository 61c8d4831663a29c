package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/artifact"
)

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/ (.json, .md or .txt)."`
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or missing.
func (c *ArtifactCheckCmd) Run(e *Env) error {
	if err := artifact.CheckName(c.Name, false); err != nil {
		return err
	}
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	head, err := e.headSHA()
	if err != nil {
		return err
	}
	v, err := artifact.Judge(d, s.SessionID, c.Name, head)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "%s\t%s\t%s\n", v.State, v.Stamp, head)
	return v.Err
}
