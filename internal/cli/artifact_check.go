package cli

import (
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
)

// ArtifactCheckCmd is `artifact check NAME`.
type ArtifactCheckCmd struct {
	BranchFlag
	Name string `arg:"" help:"Relative path inside files/."`
}

// Run exits 0 when the artifact's stamp equals HEAD, 1 when stale or missing.
func (c *ArtifactCheckCmd) Run(e *Env) error {
	if err := checkArtifactName(c.Name, false); err != nil {
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
	if err := noSymlinks(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	if err := caseVariant(d.FilesDir(s.SessionID), c.Name); err != nil {
		return err
	}
	data, err := d.ReadFile(s.SessionID, c.Name)
	if err != nil {
		return err
	}
	if data == nil {
		fmt.Fprintf(e.Stdout, "missing\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s does not exist", c.Name).WithHint("produce it, then orc-state artifact put %s - --session %s", safetext.Quote(c.Name), safetext.Quote(s.SessionID))
	}
	var stamp struct {
		HeadSha string `json:"headSha"`
	}
	if json.Unmarshal(data, &stamp) != nil || stamp.HeadSha == "" {
		fmt.Fprintf(e.Stdout, "stale\t-\t%s\n", head)
		return fault.NotFoundf("artifact %s carries no headSha stamp", c.Name).WithHint("regenerate it, then orc-state artifact put %s - --session %s", safetext.Quote(c.Name), safetext.Quote(s.SessionID))
	}
	if stamp.HeadSha != head {
		fmt.Fprintf(e.Stdout, "stale\t%s\t%s\n", safetext.Escape(stamp.HeadSha), head)
		return fault.NotFoundf("artifact %s was generated at %s; HEAD is %s", c.Name, short(stamp.HeadSha), short(head)).
			WithHint("regenerate it at HEAD, then orc-state artifact put %s - --session %s", safetext.Quote(c.Name), safetext.Quote(s.SessionID))
	}
	fmt.Fprintf(e.Stdout, "fresh\t%s\t%s\n", stamp.HeadSha, head)
	return nil
}
