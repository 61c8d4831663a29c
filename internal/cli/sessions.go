package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/board"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/registry"
)

// SessionsCmd is `sessions`.
type SessionsCmd struct {
	HeaderFlag
	Status string `enum:"${session_statuses}," default:"" help:"Only sessions with this status."`
	JSON   bool   `name:"json" help:"JSON for pickers: newest first, with branchExists and worktree."`
}

// Run lists sessions.
func (c *SessionsCmd) Run(o *app.Streams, sd *app.StateDir) error {
	d, err := sd.Dir()
	if err != nil {
		return err
	}
	reg, _, err := d.ReadRegistry() // no lock
	if err != nil {
		return err
	}
	var list []registry.Session
	for _, s := range reg.Sessions {
		if c.Status == "" || s.Status == c.Status {
			list = append(list, s)
		}
	}
	for _, l := range selection.LinkedSessions(d) { // the workspace sessions this repository is a member of
		if (c.Status == "" || l.Session.Status == c.Status) && reg.Exact(l.Session.SessionID) == nil {
			list = append(list, *l.Session)
		}
	}
	if c.JSON {
		return printJSON(o.Stdout, board.PickerRows(d, list), "  ")
	}
	var b strings.Builder
	printHeader(&b, c.Header, "sessionId", "command", "phase/total", "status", "gitBranch")
	for _, s := range list {
		fmt.Fprintf(&b, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
	}
	_, err = fmt.Fprint(o.Stdout, b.String())
	return err
}
