package board

import (
	"github.com/orc-state/orc-state/internal/safetext"

	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

var now = time.Date(2031, 5, 1, 12, 0, 0, 0, time.UTC)

func sample() Board {
	return Board{Schema: Schema, At: now.Format(TimeLayout), Problems: []string{}, Sessions: []Session{{
		SessionID: "feat-x", Command: "flow", GitBranch: "feat/x", Status: "paused",
		Phase: registry.Phase{N: 2}, PhaseLabel: "build", TotalPhases: 4, UpdatedAt: "2031-05-01T11:57:00Z",
		Next: "files/plan.md", OpenDecisions: []string{"which db"},
		Slices: &Slices{Done: 1, Total: 4, ByStatus: map[string]int{"committed": 1, "pending": 2, "red": 1}, MaxAttempts: 3, Open: []Slice{
			{ID: "2", Title: "api", Status: "pending", ClaimedBy: "agent-a", Until: "2031-05-01T12:12:30Z", LeaseLeft: 750, WaitsOn: []string{}},
			{ID: "3", Title: "ui", Status: "pending", WaitsOn: []string{"2"}},
			{ID: "4", Title: "docs", Status: "red", Attempts: 3, ClaimedBy: "agent-b", Until: "2031-05-01T11:00:00Z", Expired: true, WaitsOn: []string{}},
		}},
		Worktrees: []Worktree{{Path: "/w/b", Branch: "feat/x-b", Agent: "agent-b", Tree: "dirty"}},
		Events:    []Event{{Seq: 9, At: "2031-05-01T10:00:00Z", Actor: "agent-a", Verb: "slice claim"}},
		Findings:  []verify.Finding{{Code: "journal.anchor", Message: "the anchor differs", Next: "orc-state repair --session feat-x"}},
	}}}
}

// TestRenderPlain: without colour the view is plain text: every part of
// a session on its own line, claims with the lease left or expired,
// dependencies, attempts against the budget, ages against View.Now.
func TestRenderPlain(t *testing.T) {
	got := Render(sample(), View{Now: now})
	want := `1 session (1 paused) · 2 claims (1 expired) · 1 finding

feat-x  flow  on feat/x  [paused]  updated 3m ago
  phase 2/4 [##########----------] 50%  build
  next: files/plan.md
  slices 1/4 [#####---------------] 25%  pending 2, red 1, committed 1  budget 3 attempts
    2 pending  api  held by agent-a  lease 12m left
    3 pending  ui  waits on 2
    4 red  docs  attempt 3/3  held by agent-b  lease expired
  worktree /w/b  feat/x-b  agent agent-b  dirty
  decision open: which db
  2h ago  agent-a  slice claim
  journal.anchor: the anchor differs  next: orc-state repair --session feat-x
`
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}

// TestRenderCases: the view's rules, each on a board built for it.
func TestRenderCases(t *testing.T) {
	for _, c := range []struct {
		name  string
		board func(b *Board)
		view  View
		check func(t *testing.T, out string)
	}{
		{"no session says how to see finished ones", func(b *Board) { b.Sessions = nil }, View{Now: now},
			func(t *testing.T, out string) {
				if out != "no live session (orc-state board --all shows every session)\n" {
					t.Errorf("got %q", out)
				}
			}},
		{"every line fits the width, cut with an ellipsis", func(*Board) {}, View{Now: now, Width: 30},
			func(t *testing.T, out string) {
				for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if w := safetext.Width(l); w > 30 {
						t.Errorf("%d columns: %q", w, l)
					}
				}
				if !strings.Contains(out, "…") {
					t.Error("nothing was cut")
				}
			}},
		{"wide characters count two columns", func(b *Board) { b.Sessions[0].SessionID = strings.Repeat("界", 20) }, View{Now: now, Width: 21},
			func(t *testing.T, out string) {
				first := strings.SplitN(out, "\n", 2)[0]
				if w := safetext.Width(first); w > 21 || !strings.HasSuffix(first, "…") {
					t.Errorf("%d columns: %q", w, first)
				}
			}},
		{"colour only when asked", func(*Board) {}, View{Now: now, Color: true},
			func(t *testing.T, out string) {
				if !strings.Contains(out, bold+yellow+"[paused]"+reset) {
					t.Errorf("paused does not stand out: %q", out)
				}
				if !strings.Contains(out, bold+red+"  lease expired"+reset) {
					t.Errorf("an expired lease does not stand out: %q", out)
				}
				if stripANSI(out) != Render(sample(), View{Now: now}) {
					t.Errorf("colour changes the text: %q", out)
				}
			}},
		{"the width counts no escape sequence", func(*Board) {}, View{Now: now, Color: true, Width: 40},
			func(t *testing.T, out string) {
				for _, l := range strings.Split(out, "\n") {
					if w := safetext.Width(stripANSI(l)); w > 40 {
						t.Errorf("%d columns: %q", w, l)
					}
				}
				if !strings.Contains(out, "agent \x1b[0magent-…\n") {
					t.Errorf("the worktree line is not cut where it ends: %q", out)
				}
			}},
		{"no escape sequence without colour", func(*Board) {}, View{Now: now},
			func(t *testing.T, out string) {
				if strings.Contains(out, "\x1b") {
					t.Errorf("an escape sequence: %q", out)
				}
			}},
		{"names from the data are escaped", func(b *Board) {
			b.Sessions[0].Command = "evil\x1b[2J"
			b.Sessions[0].Slices.Open[0].Title = "a\nb"
			b.Sessions[0].Events[0].Actor = "x\u202ey"
			b.Problems = []string{"bad\rfile"}
		}, View{Now: now, Color: true},
			func(t *testing.T, out string) {
				for _, bad := range []string{"\x1b[2J", "a\nb", "\u202e", "\r"} {
					if strings.Contains(out, bad) {
						t.Errorf("%q shown raw", bad)
					}
				}
				if !strings.Contains(out, `evil\x1b[2J`) || !strings.Contains(out, `a\nb`) {
					t.Errorf("not shown escaped: %q", out)
				}
			}},
		{"a lease counts down with View.Now", func(*Board) {}, View{Now: now.Add(12 * time.Minute)},
			func(t *testing.T, out string) {
				if !strings.Contains(out, "lease 30s left") {
					t.Errorf("%q", out)
				}
			}},
		{"a lease past View.Now is expired", func(*Board) {}, View{Now: now.Add(13 * time.Minute)},
			func(t *testing.T, out string) {
				if strings.Contains(out, "left") || strings.Count(out, "lease expired") != 2 {
					t.Errorf("%q", out)
				}
			}},
		{"phase done fills the bar", func(b *Board) { b.Sessions[0].Phase = registry.Phase{Done: true} }, View{Now: now},
			func(t *testing.T, out string) {
				if !strings.Contains(out, "phase done/4 [####################] 100%") {
					t.Errorf("%q", out)
				}
			}},
		{"no ledger, no slices line", func(b *Board) { b.Sessions[0].Slices = nil }, View{Now: now},
			func(t *testing.T, out string) {
				if strings.Contains(out, "slices") {
					t.Errorf("%q", out)
				}
			}},
		{"sessions are separated by a blank line", func(b *Board) { b.Sessions = append(b.Sessions, b.Sessions[0]) }, View{Now: now},
			func(t *testing.T, out string) {
				if strings.Count(out, "\n\nfeat-x  flow") != 2 || !strings.HasPrefix(out, "2 sessions (2 paused) · 4 claims (2 expired) · 2 findings\n") {
					t.Errorf("%q", out)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := sample()
			c.board(&b)
			c.check(t, Render(b, c.view))
		})
	}
}

// TestFrameFitsTheScreen: a frame homes the cursor, erases each line's
// end and the rest of the screen, holds at most rows-1 lines of the board
// (saying how many more there are) and ends with the footer, lines ending
// in \r\n for a terminal in raw mode.
func TestFrameFitsTheScreen(t *testing.T) {
	f := Frame(sample(), View{Now: now, Width: 60}, 6)
	if !strings.HasPrefix(f, "\x1b[H") || !strings.Contains(f, "\x1b[J") {
		t.Errorf("frame does not home and erase: %q", f)
	}
	if n := strings.Count(f, "\r\n"); n != 5 {
		t.Errorf("%d lines before the footer, want 5: %q", n, f)
	}
	if !strings.Contains(f, "… 9 more lines") {
		t.Errorf("no count of the lines left out: %q", f)
	}
	if !strings.HasSuffix(f, "board · 12:00:00 UTC · q or Ctrl-C quits") {
		t.Errorf("footer: %q", f)
	}
	if strings.Contains(strings.ReplaceAll(f, "\r\n", ""), "\n") {
		t.Errorf("a bare newline: %q", f)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
