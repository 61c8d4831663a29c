package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/workspace"
)

// WorkspaceLinkCmd is `workspace link`.
type WorkspaceLinkCmd struct {
	BranchFlag
}

// Run writes the back-pointer into each member repository that has a path
// (workspace.Run.Link), printing each one linked and warning of each
// without a path.
func (c *WorkspaceLinkCmd) Run(e *Env) error {
	d, _, s, err := e.Session(c.Branch)
	if err != nil {
		return err
	}
	r := workspace.Run{Where: e.where(), Environ: e.proc.Environ, Clock: e.proc.Stamp,
		Options: func() (state.Options, error) { return e.txOptions(state.Options{}) }}
	return r.Link(d, s, func(m workspace.Member) {
		if m.Link == "" {
			e.warn("%s has no path; set it with orc-state repo set --path=P %s", m.Name, safetext.Operand(m.Name))
			return
		}
		fmt.Fprintf(e.Stdout, "linked %s: %s\n", safetext.Escape(m.Name), safetext.Escape(m.Link))
	})
}
