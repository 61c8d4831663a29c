package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/hexid"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// SliceSetCmd is `slice set ID --status S`.
type SliceSetCmd struct {
	BranchFlag
	AgentFlag
	ID        string `arg:"" help:"Slice id." predictor:"slice"`
	Status    string `required:"" enum:"${slice_statuses}" help:"Target status."`
	Commit    string `help:"The commit (required for committed): a sha, or any revision git resolves (HEAD, a branch, a tag, HEAD~1); the full sha is stored." placeholder:"REV"`
	ActualLoc *int   `name:"actual-loc" help:"Lines of code actually changed." placeholder:"N"`
	Note      string `help:"Note (required for skipped and escalated)." placeholder:"S"`
	Force     bool   `help:"Leave a terminal status (committed, skipped), or act on a slice another agent claims; journaled."`
}

// Help is the detail of slice set --help: the machine, from its table.
func (c *SliceSetCmd) Help() string { return slices.MachineText() }

// Run moves one slice through the status machine.
func (c *SliceSetCmd) Run(e *Env) error {
	if err := checkText("--note", []byte(c.Note)); err != nil {
		return err
	}
	if c.ActualLoc != nil && *c.ActualLoc < 0 {
		return fault.Usagef("--actual-loc %d is negative", *c.ActualLoc)
	}
	// An unusable default agent id only matters on a claimed slice, where
	// it matches no holder: callers that never claim keep working.
	agent, err := e.agent(c.Agent)
	if err != nil && c.Agent != "" {
		return err
	}
	u := slices.Update{Status: c.Status, Commit: c.Commit, ActualLoc: c.ActualLoc, Note: c.Note, Force: c.Force,
		Agent: agent, Now: e.now()}
	if c.Commit != "" {
		if u.Commit, u.CommitVerified, u.CommitWhy, err = e.resolveCommit(c.Commit); err != nil {
			return err
		}
	}
	var res slices.Result
	var id string // the session, for the hint
	err = e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		id = s.SessionID
		l, err := readLedger(tx, s.SessionID)
		if err != nil {
			return err
		}
		dec, err := readDecisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		if u.MaxRetries, err = dec.Count(decisions.MaxRetriesPerSlice, slices.DefaultMaxRetries); err != nil {
			return err // a budget that is no count is not replaced by the default
		}
		if u.MaxRetries == 0 {
			u.MaxRetries = -1 // a settled 0 means no retries at all
		}
		if res, err = l.Set(c.ID, u); err != nil {
			return err
		}
		if !res.Changed {
			return nil
		}
		tx.Write(s.SessionID, state.LedgerFile, l.Marshal())
		args := map[string]any{"id": c.ID, "from": res.From, "to": res.To, "commit": u.Commit,
			"commitVerified": u.CommitVerified, "forced": res.Forced, "attempts": res.Attempts}
		if res.Overrode != "" {
			args["agent"], args["overrodeClaimOf"] = agent, res.Overrode
		}
		if res.Released != "" {
			args["releasedClaimOf"] = res.Released
		}
		if c.Commit != "" && !strings.EqualFold(c.Commit, u.Commit) {
			args["rev"] = c.Commit // what was given, resolved to commit
		}
		if res.Retired != "" {
			args["retiredCommit"] = res.Retired
		}
		tx.Touch(s.SessionID, args)
		return nil
	})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		e.warn("%s", w)
	}
	if res.Escalated {
		return &fault.Error{Code: fault.Escalation, Msg: fmt.Sprintf("slice %s used its retry budget (%s); it is now escalated", c.ID, slices.Spent(res.Attempts)),
			Hint: "a human decides: orc-state slice set --status=STATUS --session=" + safetext.Quote(id) + " " + safetext.Operand(c.ID) + " (STATUS: pending or red to try again), or --status=skipped --note=WHY"}
	}
	return nil
}

// resolveCommit is what --commit rev records, asked of git before the
// lock: the full id of the commit rev names. A sha (7 to 64 hex digits)
// that git cannot confirm is kept as given, unverified, with why (a
// commit made elsewhere may arrive later); any other revision (HEAD, a
// branch, a tag, HEAD~1) must resolve, or the verb refuses it (exit 2).
func (e *Env) resolveCommit(rev string) (commit string, verified bool, why string, err error) {
	sha := hexid.Commit(rev)
	d, err := e.Dir()
	if err != nil {
		return "", false, "", err
	}
	if d.Git == nil {
		if sha {
			return rev, false, "cannot be checked (not inside a git repository)", nil
		}
		return "", false, "", fault.Usagef("--commit %s is no sha, and there is no repository to resolve it in", safetext.Quote(rev)).
			WithHint("pass the commit's sha, or run inside the repository")
	}
	r, err := gitx.OpenLayout(*d.Git)
	if err != nil {
		if sha {
			return rev, false, "cannot be checked (" + err.Error() + ")", nil
		}
		return "", false, "", fault.Wrap(fault.Invalid, err, "cannot open the repository to resolve --commit %s", safetext.Quote(rev))
	}
	defer r.Close()
	if sha {
		c := r.CheckClaim(rev)
		if c.OK() {
			return c.Full, true, "", nil
		}
		return rev, false, c.Problem(), nil
	}
	full, err := r.ResolveRevision(rev)
	switch {
	case errors.Is(err, gitx.ErrNoRevision):
		return "", false, "", fault.Usagef("--commit %s names no commit of this repository", safetext.Quote(rev)).
			WithHint("pass a sha, or a revision git resolves (HEAD, a branch, a tag, HEAD~1)")
	case err != nil:
		return "", false, "", fault.Usagef("--commit %s cannot be resolved: %v", safetext.Quote(rev), err).
			WithHint("run git status here to see why; or pass the commit's sha")
	}
	return full, true, "", nil
}
