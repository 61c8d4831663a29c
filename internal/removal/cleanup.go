package removal

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Sweep is what cleanup selects: the sessions named, and those the
// selectors match, not updated for MinAge when it is set.
type Sweep struct {
	Keys         []string // branches or sessionIds, each "named"
	AllCompleted bool     // completed and abandoned sessions
	Gone         bool     // sessions whose branch no longer exists
	Merged       bool     // sessions whose branch is merged into Into
	Into         string   // --merged's target; "": origin's HEAD, else main, else master
	MinAge       time.Duration
	Force        bool // in_progress and paused sessions too
}

// Row is one line of a cleanup plan.
type Row struct {
	Session string `json:"sessionId"`
	Branch  string `json:"gitBranch"`
	Status  string `json:"status"`
	Action  string `json:"action"` // remove or keep
	Reason  string `json:"reason"`
	Archive string `json:"archive,omitempty"` // where the removed session is kept
}

// Plan reads the registry (no lock) and plans the sweep: each selected
// session, in registry order, with why; a live one is kept without Force.
// The git work (--gone, --merged) happens here, before any lock.
func (r Run) Plan(sw Sweep) ([]Row, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return nil, err
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	reasons, err := r.selected(d, reg, sw)
	if err != nil {
		return nil, err
	}
	plan := make([]Row, 0, len(reasons))
	for _, s := range reg.Sessions {
		why, ok := reasons[s.SessionID]
		if !ok {
			continue
		}
		row := Row{Session: s.SessionID, Branch: s.GitBranch, Status: s.Status, Action: "remove", Reason: why}
		if live(&s) && !sw.Force {
			row.Action, row.Reason = "keep", "protected ("+s.Status+")"
		}
		plan = append(plan, row)
	}
	return plan, nil
}

// selected maps each selected sessionId to why it was selected.
func (r Run) selected(d *state.Dir, reg *registry.Registry, sw Sweep) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range sw.Keys {
		s, err := r.Where.FindKey(reg, k)
		if err != nil {
			return nil, err
		}
		out[s.SessionID] = "named"
	}
	var branches map[string]string // every branch and its tip (--gone)
	var merged map[string]bool     // the branches merged into the target (--merged)
	var targetBranch string
	if sw.Gone || sw.Merged {
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
		if sw.Merged {
			var target string
			if targetBranch, target, err = mergeTarget(repo, branches, sw.Into); err != nil {
				return nil, err
			}
			if merged, err = repo.Merged(target); err != nil {
				return nil, fault.Wrap(fault.Invalid, err, "git cannot list the branches merged into %s", targetBranch)
			}
		}
	}
	for _, s := range reg.Sessions {
		var why []string
		if sw.AllCompleted && (s.Status == "completed" || s.Status == "abandoned") {
			why = append(why, s.Status)
		}
		if _, ok := branches[s.GitBranch]; sw.Gone && !ok {
			why = append(why, "branch gone")
		}
		if sw.Merged && s.GitBranch != targetBranch && merged[s.GitBranch] {
			why = append(why, "merged")
		}
		if len(why) > 0 {
			out[s.SessionID] = strings.Join(why, ", ")
		}
	}
	if sw.MinAge > 0 {
		cutoff := r.Now().UTC().Add(-sw.MinAge).Format(registry.TimeLayout)
		for _, s := range reg.Sessions {
			if _, ok := out[s.SessionID]; ok && s.UpdatedAt > cutoff {
				delete(out, s.SessionID)
			}
		}
	}
	return out, nil
}

// mergeTarget is the branch merges are judged against and its tip:
// into, else origin's HEAD, else main, else master.
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

// PlanText is a plan as cleanup prints it, a line a session: the action
// ("would remove" in a dry run), sessionId, status and reason.
func PlanText(plan []Row, dryRun bool) string {
	var b strings.Builder
	for _, r := range plan {
		action := r.Action
		if dryRun && action == "remove" {
			action = "would remove"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", action, safetext.Escape(r.Session), safetext.Escape(r.Status), safetext.Escape(r.Reason))
	}
	return b.String()
}
