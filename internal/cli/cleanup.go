package cli

import (
	"fmt"
	"time"

	"github.com/orc-state/orc-state/internal/app"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/textin"
)

// CleanupCmd is `cleanup`.
type CleanupCmd struct {
	Keys         []string `arg:"" optional:"" name:"session" help:"Sessions to remove (branch or sessionId)."`
	DryRun       bool     `name:"dry-run" help:"Print the plan; change nothing."`
	AllCompleted bool     `name:"all-completed" help:"Select completed and abandoned sessions."`
	Gone         bool     `help:"Select sessions whose branch no longer exists."`
	Merged       bool     `help:"Select sessions whose branch is merged into --into (default: origin's HEAD, else main, else master)."`
	Into         string   `help:"The branch --merged compares with." placeholder:"BRANCH"`
	OlderThan    string   `name:"older-than" help:"Only sessions not updated for this long (720h, 30d)." placeholder:"DUR"`
	Force        bool     `help:"Also remove in_progress and paused sessions (archived first, like every removal); with --archives, delete the archives listed."`
	Archives     bool     `help:"Sweep archives instead of sessions: those older than --older-than (of the sessions named, else all); prints them, deletes them only with --force."`
	JSON         bool     `name:"json" help:"The plan as JSON."`
}

// Run sweeps sessions: it prints the plan, stops there with --dry-run, and
// otherwise archives each candidate's entry and files, then removes its
// folder and entry under the lock with a tombstone (app.Cleanup). It
// never deletes branches, worktrees or per-repository files. With
// --archives it sweeps archives instead (cleanup_archives.go).
func (c *CleanupCmd) Run(o *app.Streams, txn *app.Txn) error {
	if c.Archives {
		return c.sweepArchives(o, txn)
	}
	if !c.AllCompleted && !c.Gone && !c.Merged && len(c.Keys) == 0 {
		return fault.Usagef("nothing selected").WithHint("name sessions, or pass --all-completed, --gone or --merged")
	}
	if c.Into != "" && !c.Merged {
		return fault.Usagef("--into needs --merged")
	}
	minAge, err := c.minAge()
	if err != nil {
		return err
	}
	res, err := app.Cleanup(txn, app.CleanupParams{Keys: c.Keys, AllCompleted: c.AllCompleted, Gone: c.Gone, Merged: c.Merged,
		Into: c.Into, MinAge: minAge, Force: c.Force, DryRun: c.DryRun})
	if err != nil {
		return err
	}
	if res.Removed > 0 {
		fmt.Fprintf(o.Stderr, "%d session(s) removed, each archived first: orc-state archive list shows them, orc-state session restore ID brings one back\n", res.Removed)
	}
	if len(res.Plan) == 0 { // say so: an empty stdout alone reads like a failure
		would := "nothing was removed"
		if c.DryRun {
			would = "nothing would be removed"
		}
		fmt.Fprintf(o.Stderr, "orc-state %s: no session matched the selection; %s\n", o.Verb, would)
	}
	if c.JSON {
		return printJSON(o.Stdout, map[string]any{"dryRun": c.DryRun, "plan": res.Plan}, "  ")
	}
	_, err = fmt.Fprint(o.Stdout, res.Text(c.DryRun))
	return err
}

// minAge is --older-than as a duration, 0 when not given.
func (c *CleanupCmd) minAge() (time.Duration, error) {
	if c.OlderThan == "" {
		return 0, nil
	}
	d, err := textin.Age(c.OlderThan)
	if err != nil {
		return 0, fault.Usagef("--older-than %q: %v", c.OlderThan, err).WithHint("use a duration like 720h or 30d")
	}
	return d, nil
}
