package cli

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/registry"
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

// planRow is one line of a cleanup plan.
type planRow struct {
	Session string `json:"sessionId"`
	Branch  string `json:"gitBranch"`
	Status  string `json:"status"`
	Action  string `json:"action"` // remove or keep
	Reason  string `json:"reason"`
	Archive string `json:"archive,omitempty"` // where the removed session is kept
}

// Run sweeps sessions: it prints the plan, stops there with --dry-run, and
// otherwise archives each candidate's entry and files, then removes its
// folder and entry under the lock with a tombstone. It never deletes
// branches, worktrees or per-repository files. With --archives it sweeps
// archives instead (cleanup_archives.go).
func (c *CleanupCmd) Run(e *Env) error {
	if c.Archives {
		return c.sweepArchives(e)
	}
	if !c.AllCompleted && !c.Gone && !c.Merged && len(c.Keys) == 0 {
		return fault.Usagef("nothing selected").WithHint("name sessions, or pass --all-completed, --gone or --merged")
	}
	if c.Into != "" && !c.Merged {
		return fault.Usagef("--into needs --merged")
	}
	var minAge time.Duration
	if c.OlderThan != "" {
		var err error
		if minAge, err = parseAge(c.OlderThan); err != nil {
			return fault.Usagef("--older-than %q: %v", c.OlderThan, err).WithHint("use a duration like 720h or 30d")
		}
	}
	d, reg, err := e.readRegistry()
	if err != nil {
		return err
	}
	reasons, err := c.select_(e, d, reg, minAge) // git work happens here, before the lock
	if err != nil {
		return err
	}
	plan := make([]planRow, 0, len(reasons))
	for _, s := range reg.Sessions {
		why, ok := reasons[s.SessionID]
		if !ok {
			continue
		}
		row := planRow{Session: s.SessionID, Branch: s.GitBranch, Status: s.Status, Action: "remove", Reason: why}
		if (s.Status == "in_progress" || s.Status == "paused") && !c.Force {
			row.Action, row.Reason = "keep", "protected ("+s.Status+")"
		}
		plan = append(plan, row)
	}
	if !c.DryRun {
		if err := c.apply(e, plan); err != nil {
			return err
		}
		removed := 0
		for _, r := range plan {
			if r.Archive != "" {
				removed++
			}
		}
		if removed > 0 {
			fmt.Fprintf(e.Stderr, "%d session(s) removed, each archived first: orc-state archive list shows them, orc-state session restore ID brings one back\n", removed)
		}
	}
	return c.print(e, plan)
}

// select_ maps each selected sessionId to why it was selected.
func (c *CleanupCmd) select_(e *Env, d *state.Dir, reg *registry.Registry, minAge time.Duration) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range c.Keys {
		s, err := e.findKey(reg, k)
		if err != nil {
			return nil, err
		}
		out[s.SessionID] = "named"
	}
	var branches map[string]string // every branch and its tip (--gone)
	var merged map[string]bool     // the branches merged into the target (--merged)
	var targetBranch string
	if c.Gone || c.Merged {
		if d.Git == nil {
			return nil, fault.Usagef("--gone and --merged need a git repository")
		}
		repo, err := gitx.OpenLayout(*d.Git)
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot open the repository")
		}
		defer repo.Close()
		if branches, err = repo.Branches(); err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "git cannot list the branches")
		}
		if c.Merged {
			var target string
			if targetBranch, target, err = mergeTarget(repo, branches, c.Into); err != nil {
				return nil, err
			}
			if merged, err = repo.Merged(target); err != nil {
				return nil, fault.Wrap(fault.Invalid, err, "git cannot list the branches merged into %s", targetBranch)
			}
		}
	}
	for _, s := range reg.Sessions {
		var why []string
		if c.AllCompleted && (s.Status == "completed" || s.Status == "abandoned") {
			why = append(why, s.Status)
		}
		if _, ok := branches[s.GitBranch]; c.Gone && !ok {
			why = append(why, "branch gone")
		}
		if c.Merged && s.GitBranch != targetBranch && merged[s.GitBranch] {
			why = append(why, "merged")
		}
		if len(why) > 0 {
			out[s.SessionID] = strings.Join(why, ", ")
		}
	}
	if minAge > 0 {
		cutoff := e.now().UTC().Add(-minAge).Format(registry.TimeLayout)
		for _, s := range reg.Sessions {
			if _, ok := out[s.SessionID]; ok && s.UpdatedAt > cutoff {
				delete(out, s.SessionID)
			}
		}
	}
	return out, nil
}

// mergeTarget is the branch merges are judged against and its tip:
// --into, else origin's HEAD, else main, else master.
func mergeTarget(r *gitx.Repo, branches map[string]string, into string) (branch, sha string, err error) {
	candidates := []string{into}
	if into == "" {
		candidates = []string{originHead(r), "main", "master"}
	}
	for _, b := range candidates {
		if sha, ok := branches[b]; b != "" && ok {
			return b, sha, nil
		}
	}
	if into != "" {
		return "", "", fault.Usagef("branch %q does not exist", into)
	}
	return "", "", fault.Usagef("no default branch found (origin/HEAD, main, master)").WithHint("pass --into BRANCH")
}

// originHead is the branch refs/remotes/origin/HEAD names ("" when none).
func originHead(r *gitx.Repo) string {
	ctx, cancel := context.WithTimeout(context.Background(), gitx.Timeout)
	defer cancel()
	out, err := r.Layout().Run(ctx, "symbolic-ref", "-q", "refs/remotes/origin/HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/remotes/origin/")
}

// apply archives the planned sessions, then removes them under the lock,
// re-checking each one: a session that became live meanwhile is kept, and
// one that changed since it was archived is archived again.
func (c *CleanupCmd) apply(e *Env, plan []planRow) error {
	planned := make([]planRow, len(plan))
	copy(planned, plan)
	return e.archived(nil, func(d *state.Dir) ([]*archive.Item, error) {
		reg, _, err := d.ReadRegistry()
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, row := range planned {
			if row.Action == "remove" {
				ids = append(ids, row.Session)
			}
		}
		snaps, err := archive.ReadSessions(d, reg, ids)
		if err == nil {
			err = archiveBindings(d, snaps)
		}
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read a session to archive it").WithHint("run orc-state doctor")
		}
		var items []*archive.Item
		for _, id := range ids {
			if snaps[id] != nil {
				items = append(items, archive.NewItem(id, archive.KindSession, e.Verb, e.Actor(), e.stamp(), snaps[id]))
			}
		}
		return items, nil
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		copy(plan, planned)
		var removed []string
		byID := map[string]*archive.Item{}
		var ids []string
		for _, it := range items {
			byID[it.Meta.Session] = it
			ids = append(ids, it.Meta.Session)
		}
		current, err := archive.ReadSessions(tx.Dir(), tx.Reg, ids)
		if err == nil {
			err = archiveBindings(tx.Dir(), current)
		}
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot read a session").WithHint("run orc-state doctor")
		}
		for i := range plan {
			if plan[i].Action != "remove" {
				continue
			}
			s := tx.Reg.Exact(plan[i].Session)
			if s == nil {
				plan[i].Action, plan[i].Reason = "gone", "already removed"
				continue
			}
			if (s.Status == "in_progress" || s.Status == "paused") && !c.Force {
				plan[i].Action, plan[i].Reason = "keep", "became "+s.Status+" meanwhile"
				continue
			}
			now := current[s.SessionID]
			if byID[s.SessionID] == nil { // registered since it was read
				if now, err = archive.ReadSession(tx.Dir(), tx.Reg, s.SessionID); err == nil {
					err = archiveBindings(tx.Dir(), map[string]archive.Snapshot{s.SessionID: now})
				}
				if err != nil {
					return fault.Wrap(fault.Invalid, err, "cannot read %s", s.SessionID).WithHint("run orc-state doctor")
				}
			}
			name, err := keepCurrent(tx, store, byID[s.SessionID], s.SessionID, archive.KindSession, e.Verb, e.Actor(), now)
			if err != nil {
				return err
			}
			plan[i].Archive = name
			removed = append(removed, s.SessionID) // before: s points into tx.Reg.Sessions, which the removal shifts
			tx.RemoveSessionArchived(*s, name)
		}
		return unbindSessions(tx, removed...) // the worktrees stay
	})
}

func (c *CleanupCmd) print(e *Env, plan []planRow) error {
	if len(plan) == 0 { // say so: an empty stdout alone reads like a failure
		would := "nothing was removed"
		if c.DryRun {
			would = "nothing would be removed"
		}
		fmt.Fprintf(e.Stderr, "orc-state %s: no session matched the selection; %s\n", e.Verb, would)
	}
	if c.JSON {
		return printJSON(e, map[string]any{"dryRun": c.DryRun, "plan": plan}, "  ")
	}
	var b strings.Builder
	for _, r := range plan {
		action := r.Action
		if c.DryRun && action == "remove" {
			action = "would remove"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", action, safetext.Escape(r.Session), safetext.Escape(r.Status), safetext.Escape(r.Reason))
	}
	_, err := fmt.Fprint(e.Stdout, b.String())
	return err
}

// parseAge reads a Go duration or a number of days ("30d").
func parseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := textin.Decimal(n, 0, math.MaxInt64/int64(24*time.Hour))
		if err != nil {
			return 0, fmt.Errorf("not a number of days: %w", err)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	return d, err
}
