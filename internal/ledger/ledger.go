// Package ledger owns what the slice verbs do to a session's slice ledger
// (files/slices.json) inside the caller's one transaction: moving a slice
// through the status machine with the decided retry budget, claiming the
// first ready slice and releasing a claim nobody learned of, and the
// readiness document of slice verify; each write journaled with what it
// did. The machine and the ledger's format are package slices'; the verbs
// parse the flags, open the transaction and print.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/artifact"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// Read reads session id's ledger inside tx; a session without one is
// exit 1.
func Read(tx *state.Tx, id string) (*slices.Ledger, error) {
	data, err := tx.Read(id, state.LedgerFile)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fault.NotFoundf("session %s has no slice ledger", id).WithHint("orc-state slice init FILE")
	}
	return slices.Parse(data)
}

// Decisions reads session id's decisions inside tx.
func Decisions(tx *state.Tx, id string) (*decisions.File, error) {
	data, err := tx.Read(id, state.DecisionsFile)
	if err != nil {
		return nil, err
	}
	return decisions.Parse(data)
}

// Set moves slice sliceID of session id by u, its retry budget the
// session's decision (slices.DefaultMaxRetries when unsettled), and
// journals the move; rev is --commit as given ("" for none), recorded
// beside the commit it resolved to. A move that changes nothing writes
// nothing.
func Set(tx *state.Tx, id, sliceID string, u slices.Update, rev string) (slices.Result, error) {
	var res slices.Result
	l, err := Read(tx, id)
	if err != nil {
		return res, err
	}
	dec, err := Decisions(tx, id)
	if err != nil {
		return res, err
	}
	if u.MaxRetries, err = dec.Count(decisions.MaxRetriesPerSlice, slices.DefaultMaxRetries); err != nil {
		return res, err // a budget that is no count is not replaced by the default
	}
	if u.MaxRetries == 0 {
		u.MaxRetries = -1 // a settled 0 means no retries at all
	}
	if res, err = l.Set(sliceID, u); err != nil {
		return res, err
	}
	if !res.Changed {
		return res, nil
	}
	tx.Write(id, state.LedgerFile, l.Marshal())
	args := map[string]any{"id": sliceID, "from": res.From, "to": res.To, "commit": u.Commit,
		"commitVerified": u.CommitVerified, "forced": res.Forced, "attempts": res.Attempts}
	if res.Overrode != "" {
		args["agent"], args["overrodeClaimOf"] = u.Agent, res.Overrode
	}
	if res.Released != "" {
		args["releasedClaimOf"] = res.Released
	}
	if rev != "" && !strings.EqualFold(rev, u.Commit) {
		args["rev"] = rev // what was given, resolved to commit
	}
	if res.Retired != "" {
		args["retiredCommit"] = res.Retired
	}
	tx.Touch(id, args)
	return res, nil
}

// Claimed is what a claim took: the claim, the slice as JSON, and the
// agent's other live claims.
type Claimed struct {
	slices.ClaimResult
	View []byte
	Held []slices.Holding
}

// Claim takes the first ready slice of session id for agent at now, for
// lease, and journals it.
func Claim(tx *state.Tx, id, agent string, now time.Time, lease time.Duration) (Claimed, error) {
	var c Claimed
	l, err := Read(tx, id)
	if err != nil {
		return c, err
	}
	for _, h := range l.Holdings(now) {
		if h.By == agent {
			c.Held = append(c.Held, h)
		}
	}
	if c.ClaimResult, err = l.Claim(agent, now, lease); err != nil {
		return c, err
	}
	r := c.ClaimResult
	c.View, _ = l.SliceJSON(r.ID)
	tx.Write(id, state.LedgerFile, l.Marshal())
	args := map[string]any{"id": r.ID, "agent": agent, "until": r.Until.Format(slices.TimeLayout), "lease": lease.String()}
	if r.Took != "" {
		args["took"] = r.Took // an expired claim, replaced
	}
	tx.Touch(id, args)
	return c, nil
}

// Unclaim releases the claim r made for agent, when it is still agent's
// with the same end (nobody renewed or took it meanwhile); journaled with
// why: its id could not be printed.
func Unclaim(tx *state.Tx, id string, r slices.ClaimResult, agent string, now time.Time) error {
	l, err := Read(tx, id)
	if err != nil {
		return err
	}
	v, ok := l.Get(r.ID)
	if !ok || v.ClaimedBy != agent || !v.ClaimedUntil.Equal(r.Until) {
		return nil // no longer this run's claim
	}
	if _, err := l.Release(r.ID, agent, now, false); err != nil {
		return err
	}
	tx.Write(id, state.LedgerFile, l.Marshal())
	tx.Touch(id, map[string]any{"released": r.ID, "agent": agent, "why": "its id could not be printed"})
	return nil
}

// Readiness is the readiness report of session id's ledger l in d for
// a LOC budget per slice (0: the check's default): the plan file's sha256
// when the plan names one inside files/, and the touchpoints looked up in
// the work tree.
func Readiness(d *state.Dir, id string, l *slices.Ledger, budget int) slices.Report {
	plan := l.PlanPath()
	if plan == "" {
		plan = "plan.md"
	}
	in := slices.ReadinessInput{Budget: budget}
	if artifact.CheckName(plan+".json", false) == nil || !strings.Contains(plan, "..") {
		if data, err := d.ReadFile(id, filepath.Clean(plan)); err == nil && data != nil {
			sum := sha256.Sum256(data)
			in.PlanSHA256 = hex.EncodeToString(sum[:])
		}
	}
	if d.Git != nil {
		root := d.Git.WorktreeRoot
		in.TouchpointExists = func(p string) bool {
			_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
			return err == nil
		}
	}
	return slices.Readiness(l, in)
}

// WriteReadiness writes rep as session id's readiness.json, generated at
// at with HEAD head ("unknown" when git cannot say), and journals it.
func WriteReadiness(tx *state.Tx, id string, rep slices.Report, at, head string) {
	checks := rep.Checks
	if checks == nil {
		checks = []slices.Finding{}
	}
	doc, _ := json.MarshalIndent(map[string]any{"schema": 1, "generatedAt": at, "headSha": head,
		"verdict": rep.Verdict, "checks": checks}, "", "  ")
	tx.Write(id, state.ReadinessFile, append(doc, '\n'))
	tx.Touch(id, map[string]string{"verdict": rep.Verdict, "headSha": head})
}
