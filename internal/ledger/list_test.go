package ledger

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/slices"
)

// slice list shows every slice with its commit in one width, a claim
// column only when a slice is claimed (an ended lease marked expired),
// and with --status only the slices asked for, without the commit, exit 1
// while any is listed.
func TestListShowsTheColumnsTheLedgerCalls(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	sha := strings.Repeat("ab", 20)
	l, err := slices.Parse([]byte(`{"slices":[
		{"id":"1","title":"one","status":"committed","commit":"` + sha + `"},
		{"id":"2","title":"two\u001b","status":"red","claimedBy":"x","claimedUntil":"2026-03-01T11:00:00Z"},
		{"id":"3","title":"three","status":"pending"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	all := List(l, nil, now)
	if got, want := all.Columns(), []string{"id", "status", "title", "commit", "claim"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Columns = %q, want %q", got, want)
	}
	want := []string{
		"1\tcommitted\tone\t" + sha[:12] + "\t-",
		"2\tred\ttwo\\x1b\t-\tx until 2026-03-01T11:00:00Z (expired)",
		"3\tpending\tthree\t-\t-",
	}
	if got := all.Lines(); !reflect.DeepEqual(got, want) {
		t.Errorf("Lines =\n%q\nwant\n%q", got, want)
	}
	if err := all.Unfinished(); err != nil {
		t.Errorf("a listing without --status exits %v", err)
	}
	open := List(l, []string{"pending", "red"}, now)
	if got, want := open.Columns(), []string{"id", "status", "title", "claim"}; !reflect.DeepEqual(got, want) {
		t.Errorf("filtered Columns = %q, want %q", got, want)
	}
	if err := open.Unfinished(); fault.Code(err) != fault.NotFound || err.Error() != "2 slice(s) match" {
		t.Errorf("two open slices: %v", err)
	}
	if err := List(l, []string{"escalated"}, now).Unfinished(); err != nil {
		t.Errorf("no escalated slice: %v", err)
	}
}

// The budget is --budget, else $ORC_PR_LOC_BUDGET, else the default (0);
// a value outside 1 to MaxInt32, or one not in decimal, is refused.
func TestBudgetRefusesWhatIsNoLineCount(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, c := range []struct {
		flag *int
		env  string
		want int
		bad  bool
	}{
		{nil, "", 0, false},
		{nil, "300", 300, false},
		{n(50), "300", 50, false},
		{n(0), "", 0, true},
		{n(math.MaxInt32 + 1), "", 0, true},
		{nil, "010", 0, true},
		{nil, "0", 0, true},
		{nil, "3e2", 0, true},
	} {
		got, err := Budget(c.flag, c.env)
		if got != c.want || (fault.Code(err) == fault.Usage) != c.bad {
			t.Errorf("Budget(%v, %q) = %d, %v", c.flag, c.env, got, err)
		}
	}
}

// slice verify prints the verdict, then a finding per line, and exits 1
// on FAIL only.
func TestReportLinesAndFailure(t *testing.T) {
	rep := slices.Report{Verdict: "FAIL", Checks: []slices.Finding{{Check: "loc", Status: "FAIL", SliceID: "", Detail: "too\tbig"}}}
	if got, want := ReportLines(rep), []string{"FAIL", "  loc\tFAIL\t-\ttoo\\tbig"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReportLines = %q, want %q", got, want)
	}
	if err := Failed(rep); fault.Code(err) != fault.NotFound {
		t.Errorf("FAIL exits %v", err)
	}
	if err := Failed(slices.Report{Verdict: "PASS"}); err != nil {
		t.Errorf("PASS exits %v", err)
	}
}
