package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/safetext"
)

// SessionsCmd is `sessions`.
type SessionsCmd struct {
	HeaderFlag
	Status string `enum:"${session_statuses}," default:"" help:"Only sessions with this status."`
	JSON   bool   `name:"json" help:"JSON for pickers: newest first, with branchExists and worktree."`
}

// Run lists sessions (app.Sessions).
func (c *SessionsCmd) Run(o *app.Streams, sd *app.StateDir) error {
	l, err := app.Sessions(sd, c.Status, c.JSON)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, l.Pickers, "  ")
	}
	var b strings.Builder
	printHeader(&b, c.Header, "sessionId", "command", "phase/total", "status", "gitBranch")
	for _, s := range l.Sessions {
		fmt.Fprintf(&b, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
	}
	_, err = fmt.Fprint(o.Stdout, b.String())
	return err
}
