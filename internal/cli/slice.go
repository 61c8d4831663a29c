package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/orc-state/orc-state/decisions"
	"github.com/orc-state/orc-state/internal/clock"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
	"github.com/orc-state/orc-state/slices"
)

// Run installs a ledger from FILE, refusing to overwrite progress unless
// --force.
func (c *SliceInitCmd) Run(e *Env) error {
	data, err := readInputFile(c.File)
	if err != nil {
		return err
	}
	l, err := slices.ParseInput(data)
	if err != nil {
		return err
	}
	out := l.Marshal()
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		old, err := tx.Read(s.SessionID, state.LedgerFile)
		if err != nil {
			return err
		}
		if string(old) == string(out) {
			return nil // the same plan again: nothing to do
		}
		if old != nil && !c.Force {
			prev, err := slices.Parse(old)
			if err != nil {
				return err
			}
			if prev.HasProgress() {
				done, total := prev.Done()
				return fault.Usagef("the ledger has progress (%d of %d slices done, some not pending); refusing to overwrite it", done, total).
					WithHint("pass --force to replace it (journaled)")
			}
			if h := prev.Holdings(clock.Now()); len(h) > 0 {
				return fault.Usagef("slice %s is claimed by %s until %s (%d live claim(s)); refusing to replace the ledger under working agents",
					h[0].ID, h[0].By, h[0].Until.Format(slices.TimeLayout), len(h)).
					WithHint("wait for them, or pass --force to replace it (journaled)")
			}
		}
		tx.Write(s.SessionID, state.LedgerFile, out)
		tx.Touch(s.SessionID, map[string]any{"file": c.File, "force": c.Force, "sha256": journal.Sum(out)})
		return nil
	})
}

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
		Agent: agent, Now: clock.Now()}
	if c.Commit != "" {
		u.CommitVerified = e.commitResolves(c.Commit)
	}
	var res slices.Result
	err = e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		l, err := readLedger(tx, s.SessionID)
		if err != nil {
			return err
		}
		dec, err := readDecisions(tx, s.SessionID)
		if err != nil {
			return err
		}
		u.MaxRetries = dec.Int("maxRetriesPerSlice", slices.DefaultMaxRetries)
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
		args := map[string]any{"id": c.ID, "from": res.From, "to": res.To, "commit": c.Commit,
			"commitVerified": u.CommitVerified, "forced": res.Forced, "attempts": res.Attempts}
		if res.Overrode != "" {
			args["agent"], args["overrodeClaimOf"] = agent, res.Overrode
		}
		if res.Released != "" {
			args["releasedClaimOf"] = res.Released
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
		return &fault.Error{Code: fault.Escalation, Msg: fmt.Sprintf("slice %s used its retry budget (%d attempts); it is now escalated", c.ID, res.Attempts),
			Hint: "a human decides: orc-state slice set " + c.ID + " --status pending|red, or skipped --note"}
	}
	return nil
}

// commitResolves reports whether sha is a commit of the current
// repository (asked before the lock).
func (e *Env) commitResolves(sha string) bool {
	d, err := e.Dir()
	if err != nil || d.Git == nil {
		return false
	}
	r, err := gitx.Open(d.Git.WorktreeRoot)
	if err != nil {
		return false
	}
	_, ok := r.ResolveCommit(sha)
	return ok
}

func readLedger(tx *state.Tx, id string) (*slices.Ledger, error) {
	data, err := tx.Read(id, state.LedgerFile)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fault.NotFoundf("session %s has no slice ledger", id).WithHint("orc-state slice init FILE")
	}
	return slices.Parse(data)
}

func readDecisions(tx *state.Tx, id string) (*decisions.File, error) {
	data, err := tx.Read(id, state.DecisionsFile)
	if err != nil {
		return nil, err
	}
	return decisions.Parse(data)
}

// ledgerFor reads a session's ledger without a lock.
func (e *Env) ledgerFor(explicit string) (*state.Dir, *registry.Session, *slices.Ledger, error) {
	d, _, s, err := e.Session(explicit)
	if err != nil {
		return nil, nil, nil, err
	}
	data, err := d.ReadFile(s.SessionID, state.LedgerFile)
	if err != nil {
		return nil, nil, nil, err
	}
	if data == nil {
		return nil, nil, nil, fault.NotFoundf("session %s has no slice ledger", s.SessionID).WithHint("orc-state slice init FILE")
	}
	l, err := slices.Parse(data)
	return d, s, l, err
}

type sliceRow struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Title        string `json:"title"`
	Commit       string `json:"commit"`
	ClaimedBy    string `json:"claimedBy,omitempty"`
	ClaimedUntil string `json:"claimedUntil,omitempty"`
	ClaimExpired bool   `json:"claimExpired,omitempty"`
}

// Run lists slices; with --status it is the "all done" query: exit 1 while
// any slice matches, 0 when none does. When any slice carries a claim,
// every row gets a last column: "AGENT until TIME", "(expired)" appended
// when the lease has ended, or "-". A ledger nobody claims lists as
// before.
func (c *SliceListCmd) Run(e *Env) error {
	_, _, l, err := e.ledgerFor(c.Branch)
	if err != nil {
		return err
	}
	now := clock.Now()
	want := map[string]bool{}
	for _, st := range c.Status {
		want[st] = true
	}
	rows := []sliceRow{}
	claims := false
	for _, sl := range l.Slices() {
		claims = claims || sl.ClaimedBy != ""
		if len(want) == 0 || want[sl.Status] {
			r := sliceRow{ID: sl.ID, Status: sl.Status, Title: sl.Title, Commit: sl.Commit, ClaimedBy: sl.ClaimedBy}
			if sl.ClaimedBy != "" {
				r.ClaimedUntil, r.ClaimExpired = sl.ClaimedUntil.Format(slices.TimeLayout), !sl.Live(now)
			}
			rows = append(rows, r)
		}
	}
	if c.JSON {
		if err := printJSON(e, rows, "  "); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		for _, r := range rows {
			cols := []string{r.ID, r.Status, oneLine(r.Title)}
			if len(want) == 0 {
				commit := r.Commit
				if commit == "" {
					commit = "-"
				}
				cols = append(cols, commit)
			}
			if claims {
				claim := "-"
				if r.ClaimedBy != "" {
					claim = oneLine(r.ClaimedBy) + " until " + r.ClaimedUntil
					if r.ClaimExpired {
						claim += " (expired)"
					}
				}
				cols = append(cols, claim)
			}
			b.WriteString(strings.Join(cols, "\t") + "\n")
		}
		fmt.Fprint(e.Stdout, b.String())
	}
	if len(want) > 0 && len(rows) > 0 {
		return &fault.Error{Code: fault.NotFound, Msg: fmt.Sprintf("%d slice(s) match", len(rows)), Hint: ""}
	}
	return nil
}

// Run prints the re-entry slice; exit 1 when there is none.
func (c *SliceNextCmd) Run(e *Env) error {
	_, _, l, err := e.ledgerFor(c.Branch)
	if err != nil {
		return err
	}
	id, ok := l.Next()
	if !ok {
		return fault.NotFoundf("no open slice is ready (all done, escalated, or waiting on dependencies)")
	}
	sl, _ := l.Get(id)
	fmt.Fprintf(e.Stdout, "%s\t%s\t%s\n", sl.ID, sl.Status, oneLine(sl.Title))
	return nil
}

// Run checks the plan's readiness and writes readiness.json.
func (c *SliceVerifyCmd) Run(e *Env) error {
	d, s, l, err := e.ledgerFor(c.Branch)
	if err != nil {
		return err
	}
	budget := c.Budget
	if budget == 0 {
		budget, _ = strconv.Atoi(os.Getenv("ORC_PR_LOC_BUDGET"))
	}
	plan := l.PlanPath()
	if plan == "" {
		plan = "plan.md"
	}
	in := slices.ReadinessInput{Budget: budget}
	if checkArtifactName(plan+".json") == nil || !strings.Contains(plan, "..") {
		if data, err := d.ReadFile(s.SessionID, filepath.Clean(plan)); err == nil && data != nil {
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
	rep := slices.Readiness(l, in)
	head := "unknown"
	if h, err := e.headSHA(); err == nil {
		head = h
	}
	doc, _ := json.MarshalIndent(map[string]any{"schema": 1, "generatedAt": registry.Now(), "headSha": head,
		"verdict": rep.Verdict, "checks": nonNil(rep.Checks)}, "", "  ")
	doc = append(doc, '\n')
	err = e.onSession(s.SessionID, func(tx *state.Tx, s *registry.Session) error {
		tx.Write(s.SessionID, "readiness.json", doc)
		tx.Touch(s.SessionID, map[string]string{"verdict": rep.Verdict, "headSha": head})
		return nil
	})
	if err != nil {
		return err
	}
	if !c.Quiet {
		fmt.Fprintln(e.Stdout, rep.Verdict)
		for _, f := range rep.Checks {
			id := f.SliceID
			if id == "" {
				id = "-"
			}
			fmt.Fprintf(e.Stdout, "  %s\t%s\t%s\t%s\n", f.Check, f.Status, id, oneLine(f.Detail))
		}
	}
	if rep.Verdict == "FAIL" {
		return fault.NotFoundf("readiness FAIL (%d finding(s))", len(rep.Checks))
	}
	return nil
}

func nonNil(f []slices.Finding) []slices.Finding {
	if f == nil {
		return []slices.Finding{}
	}
	return f
}

// oneLine keeps TSV output one line per row.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}

// printable replaces every control character (escape sequences included)
// so that text read from files or payloads cannot drive a terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// readInputFile reads a user's input file, at most maxStdin bytes (a file
// that never ends, like /dev/zero, is refused, not read until memory runs
// out), as fromWindows leaves it.
func readInputFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStdin+1))
	if err != nil {
		return nil, fault.Usagef("cannot read %s: %v", path, err)
	}
	if len(data) > maxStdin {
		return nil, fault.Usagef("%s is over %d bytes", path, maxStdin)
	}
	return fromWindows(path, data)
}
