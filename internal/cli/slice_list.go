package cli

import (
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/slices"
)

// SliceListCmd is `slice list`.
type SliceListCmd struct {
	BranchFlag
	HeaderFlag
	Status []string `sep:"," enum:"${slice_statuses}" help:"Only these statuses (comma-separated)."`
	JSON   bool     `name:"json" help:"JSON rows."`
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
	now := e.now()
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
		cols := []string{"id", "status", "title"}
		if len(want) == 0 {
			cols = append(cols, "commit")
		}
		if claims {
			cols = append(cols, "claim")
		}
		printHeader(&b, c.Header, cols...)
		for _, r := range rows {
			cols := []string{safetext.Escape(r.ID), safetext.Escape(r.Status), safetext.Escape(r.Title)}
			if len(want) == 0 {
				commit := short(r.Commit) // one width: 12 digits of a full sha (--json has it whole)
				if commit == "" {
					commit = "-"
				}
				cols = append(cols, commit)
			}
			if claims {
				claim := "-"
				if r.ClaimedBy != "" {
					claim = safetext.Escape(r.ClaimedBy) + " until " + safetext.Escape(r.ClaimedUntil)
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
