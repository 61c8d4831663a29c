package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/app"
)

// WorktreeListCmd is `worktree list`.
type WorktreeListCmd struct {
	HeaderFlag
	JSON bool `name:"json" help:"JSON rows."`
}

// Run lists the repository's worktrees with the session each selects, its
// bound agent and the slices that agent holds (app.WorktreeList), as TSV or
// JSON.
func (c *WorktreeListCmd) Run(o *app.Streams, w *app.World, sd *app.StateDir) error {
	rows, err := app.WorktreeList(w, sd)
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(o.Stdout, rows, "  ")
	}
	var b strings.Builder
	printHeader(&b, c.Header, "path", "branch", "session", "agent", "claims")
	for _, r := range rows {
		b.WriteString(r.Text() + "\n")
	}
	_, err = fmt.Fprint(o.Stdout, b.String())
	return err
}
