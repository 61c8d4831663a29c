package ledger

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/hexid"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/textin"
	"github.com/orc-state/orc-state/slices"
)

// Row is one slice as slice list shows it (and --json prints it).
type Row struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Title        string `json:"title"`
	Commit       string `json:"commit"`
	ClaimedBy    string `json:"claimedBy,omitempty"`
	ClaimedUntil string `json:"claimedUntil,omitempty"`
	ClaimExpired bool   `json:"claimExpired,omitempty"`
}

// Listing is slice list's answer: the rows of the statuses asked for
// (every slice when none was), and whether any slice of the ledger
// carries a claim, which gives every row a claim column.
type Listing struct {
	Rows     []Row
	Filtered bool // --status was given: the "all done" query
	Claims   bool
}

// List is the listing of l's slices of the statuses given (all when
// none), a claim judged live or expired at now.
func List(l *slices.Ledger, statuses []string, now time.Time) Listing {
	want := map[string]bool{}
	for _, st := range statuses {
		want[st] = true
	}
	out := Listing{Rows: []Row{}, Filtered: len(want) > 0}
	for _, sl := range l.Slices() {
		out.Claims = out.Claims || sl.ClaimedBy != ""
		if len(want) == 0 || want[sl.Status] {
			r := Row{ID: sl.ID, Status: sl.Status, Title: sl.Title, Commit: sl.Commit, ClaimedBy: sl.ClaimedBy}
			if sl.ClaimedBy != "" {
				r.ClaimedUntil, r.ClaimExpired = sl.ClaimedUntil.Format(slices.TimeLayout), !sl.Live(now)
			}
			out.Rows = append(out.Rows, r)
		}
	}
	return out
}

// Columns are the names of the listing's TSV columns: id, status, title,
// then commit unless filtered, then claim when any slice is claimed.
func (ls Listing) Columns() []string {
	cols := []string{"id", "status", "title"}
	if !ls.Filtered {
		cols = append(cols, "commit")
	}
	if ls.Claims {
		cols = append(cols, "claim")
	}
	return cols
}

// Lines are the listing's TSV lines, one per row, escaped: the commit in
// one width (12 digits of a full sha; --json has it whole) or "-", the
// claim as "AGENT until TIME", "(expired)" appended when the lease has
// ended, or "-".
func (ls Listing) Lines() []string {
	out := make([]string, 0, len(ls.Rows))
	for _, r := range ls.Rows {
		cols := []string{safetext.Escape(r.ID), safetext.Escape(r.Status), safetext.Escape(r.Title)}
		if !ls.Filtered {
			commit := hexid.Short(r.Commit)
			if commit == "" {
				commit = "-"
			}
			cols = append(cols, commit)
		}
		if ls.Claims {
			claim := "-"
			if r.ClaimedBy != "" {
				claim = safetext.Escape(r.ClaimedBy) + " until " + safetext.Escape(r.ClaimedUntil)
				if r.ClaimExpired {
					claim += " (expired)"
				}
			}
			cols = append(cols, claim)
		}
		out = append(out, strings.Join(cols, "\t"))
	}
	return out
}

// Unfinished is the "all done" query's answer: exit 1 while any slice
// of the statuses asked for is listed, nil when none is or none was asked.
func (ls Listing) Unfinished() error {
	if ls.Filtered && len(ls.Rows) > 0 {
		return &fault.Error{Code: fault.NotFound, Msg: fmt.Sprintf("%d slice(s) match", len(ls.Rows)), Hint: ""}
	}
	return nil
}

// Budget is slice verify's LOC budget per slice: flag (--budget), else
// env ($ORC_PR_LOC_BUDGET), else 0 (the readiness check's default); a
// whole number of lines, at least 1, in decimal. Any other value is
// refused, not replaced by the default (docs/protocol.md §4).
func Budget(flag *int, env string) (int, error) {
	if flag != nil {
		if *flag < 1 || *flag > math.MaxInt32 {
			return 0, fault.Usagef("--budget %d is outside 1 to %d", *flag, math.MaxInt32).
				WithHint("pass the LOC budget per slice, such as --budget 300")
		}
		return *flag, nil
	}
	if env == "" {
		return 0, nil
	}
	n, err := textin.Decimal(env, 1, math.MaxInt32)
	if err != nil {
		return 0, fault.Usagef("$ORC_PR_LOC_BUDGET: %v", err).
			WithHint("set it to the LOC budget per slice, such as 300, or unset it (or pass --budget N)")
	}
	return int(n), nil
}

// ReportLines are slice verify's lines: the verdict, then a finding per
// line (check, status, slice or "-", detail), escaped.
func ReportLines(rep slices.Report) []string {
	out := []string{rep.Verdict}
	for _, f := range rep.Checks {
		id := f.SliceID
		if id == "" {
			id = "-"
		}
		out = append(out, fmt.Sprintf("  %s\t%s\t%s\t%s", f.Check, f.Status, safetext.Escape(id), safetext.Escape(f.Detail)))
	}
	return out
}

// Failed is slice verify's exit: 1 when the verdict is FAIL.
func Failed(rep slices.Report) error {
	if rep.Verdict == "FAIL" {
		return fault.NotFoundf("readiness FAIL (%d finding(s))", len(rep.Checks))
	}
	return nil
}
