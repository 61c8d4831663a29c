package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// VerifyCmd is `verify`.
type VerifyCmd struct {
	BranchFlag
	Key  string `arg:"" optional:"" help:"Branch or sessionId." predictor:"session"`
	JSON bool   `name:"json" help:"Findings as JSON."`
}

// Run checks one session and lists each problem.
func (c *VerifyCmd) Run(e *Env) error {
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	d, reg, s, err := e.Session(key)
	if err != nil {
		return err
	}
	findings, err := verify.Session(d, reg, s, e.now())
	if err != nil {
		return err
	}
	findings = append(findings, verify.StoredSecrets(d, s)...)
	findings = append(findings, verify.StrayFiles(d, s.SessionID)...)
	findings = append(findings, verify.Bindings(d, e.proc.Environ, s.SessionID,
		func(string) bool { return true }, // the session verified exists
		func(branch string) *registry.Session {
			if r, _, err := d.ReadRegistryFor(branchKeys(branch)...); err == nil {
				return ownSession(r, branch)
			}
			return nil
		})...)
	g := verify.Observe(d, s.GitBranch, 0)
	defer g.Close()
	findings = append(findings, verify.Git(d, s, g)...)
	problems := len(findings)
	if c.JSON {
		if findings == nil {
			findings = []verify.Finding{}
		}
		if err := printJSON(e, map[string]any{"sessionId": s.SessionID, "ok": problems == 0, "findings": findings}, "  "); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			fmt.Fprintf(e.Stdout, "%s: %s\n  next: %s\n", f.Code, safetext.Escape(f.Message), safetext.Escape(f.Next))
		}
	}
	if problems > 0 {
		return fault.NotFoundf("%d problem(s) in session %s", problems, s.SessionID)
	}
	return nil
}
