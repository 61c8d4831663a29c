package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/app"
)

// InitCmd is `init`.
type InitCmd struct {
	BranchFlag  `json:"-"`
	Command     *string  `help:"The owning slash command (flow, plan, debug, ...); required for a new session." placeholder:"C" json:"command,omitempty"`
	TotalPhases *int     `name:"total-phases" help:"Number of phases (≥ 1); required for a new session." placeholder:"N" json:"totalPhases,omitempty"`
	Description *string  `help:"Description, at most 120 characters." json:"description,omitempty"`
	Jira        *string  `help:"Jira key (e.g. ABC-123)." placeholder:"KEY" json:"jira,omitempty"`
	Scope       *string  `enum:"${scope_workspace}," default:"" help:"Scope: ${scope_workspace} for a session spanning repositories." json:"scope,omitempty"`
	Repos       []string `sep:"," help:"Member repositories (with --scope workspace)." json:"repos,omitempty"`
	PlanFile    *string  `name:"plan-file" help:"Plan file the session follows." placeholder:"P" json:"planFile,omitempty"`
}

// Run registers the branch's session, or updates only the flags passed on
// the session the selector names (app.Init), and prints its sessionId.
func (c *InitCmd) Run(o *app.Streams, w *app.World, txn *app.Txn) error {
	res, err := app.Init(w, txn, c.Branch, app.InitFields{Command: c.Command, TotalPhases: c.TotalPhases,
		Description: c.Description, Jira: c.Jira, Scope: c.Scope, Repos: c.Repos, PlanFile: c.PlanFile})
	if err != nil {
		return err
	}
	if !res.Created && res.Status != "" && res.Status != "in_progress" {
		o.Warn("session %s is %s; run orc-state status set in_progress to reopen it", res.ID, res.Status)
	}
	fmt.Fprintln(o.Stdout, res.ID)
	return nil
}
