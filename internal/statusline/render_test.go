package statusline

import (
	"github.com/orc-state/orc-state/internal/safetext"

	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func strip(s string) string { return ansi.ReplaceAllString(s, "") }

// fullPayload is the original suite's full-render payload (verify-statusline.sh
// fixture 1), with a repository name for the place.
const fullPayload = `{
  "session_id": "sl-fix-1", "cwd": "/r", "workspace": {"current_dir": "/r", "project_dir": "/r", "repo": {"name": "shop"}},
  "model": {"id": "claude-opus-5", "display_name": "Opus 4.5"}, "version": "2.1.227",
  "effort": {"level": "high"}, "thinking": {"enabled": true},
  "context_window": {"used_percentage": 68, "remaining_percentage": 32, "context_window_size": 200000, "current_usage": null},
  "cost": {"total_cost_usd": 4.83, "total_lines_added": 412, "total_lines_removed": 88},
  "rate_limits": {"five_hour": {"used_percentage": 71, "resets_at": 1774980000}},
  "pr": {"number": 128, "url": "https://github.com/o/r/pull/128", "review_state": "approved"}
}`

func flowSession() *Session {
	return &Session{Command: "flow", Phase: "6", Total: "9", Label: "implement", Jira: "PROJ-142",
		Branch: "feat/checkout-retry", SlicesDone: 3, SlicesTotal: 7, Current: true}
}

func repoPlace() Place {
	return Place{InRepo: true, Branch: "feat/checkout-retry", Dirty: Modified}
}

func utf8Term(cols int) Terminal {
	return Terminal{Columns: cols, Color: true, UTF8: true, Location: time.UTC}
}

func TestRender(t *testing.T) {
	full := ParsePayload([]byte(fullPayload))
	tests := []struct {
		name string
		in   Input
		want string // ANSI stripped
	}{
		{"full render", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: utf8Term(160)},
			"orc flow 6/9 implement │ PROJ-142 │ slices 3/7 │ ⎇ feat/checkout-retry* │ #128 ✔ approved │ shop\n" +
				"Opus 4.5 high think │ ctx ▓▓▓▓▓▓▓░░░ 68% │ $4.83 +412/−88 │ 5h 71%\n"},
		{"full render, NO_COLOR: ASCII", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: Terminal{Columns: 160, UTF8: true}},
			"orc flow 6/9 implement | PROJ-142 | slices 3/7 | br feat/checkout-retry* | #128 approved | shop\n" +
				"Opus 4.5 high think | ctx [#######---] 68% | $4.83 +412/-88 | 5h 71%\n"},
		{"non-UTF-8 locale with colour: ASCII glyphs", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: Terminal{Columns: 160, Color: true}},
			"orc flow 6/9 implement | PROJ-142 | slices 3/7 | br feat/checkout-retry* | #128 approved | shop\n" +
				"Opus 4.5 high think | ctx [#######---] 68% | $4.83 +412/-88 | 5h 71%\n"},
		{"no session, plain repo, PR changes requested",
			Input{Payload: ParsePayload([]byte(`{"pr":{"number":77,"review_state":"changes_requested"},"context_window":{"used_percentage":31},"cost":{"total_cost_usd":0.92,"total_lines_added":58,"total_lines_removed":12}}`)),
				Place: Place{InRepo: true, Branch: "fix/login-null-guard", Dirty: Clean}, Term: utf8Term(120)},
			"orc │ ⎇ fix/login-null-guard │ #77 ✖ changes\nctx ▓▓▓░░░░░░░ 31% │ $0.92 +58/−12\n"},
		{"absent fields: nothing made up; the dirty state unknown, not clean", Input{Place: Place{InRepo: true, Branch: "fix/guard"}, Term: utf8Term(120)},
			"orc │ ⎇ fix/guard?\n"},
		{"dirty state unknown, NO_COLOR: the same mark", Input{Session: flowSession(), Place: Place{InRepo: true, Branch: "main", Dirty: DirtyUnknown}, Term: Terminal{Columns: 160, UTF8: true}},
			"orc flow 6/9 implement | PROJ-142 | slices 3/7 | br main?\n"},
		{"dirty state unknown, one plain line", Input{Payload: full, Session: flowSession(), Place: Place{InRepo: true, Branch: "main"}, Term: utf8Term(79)},
			"flow 6/9 | main? | 68% | Opus 4.5 | $4.83\n"},
		{"clean: no mark", Input{Place: Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: utf8Term(120)},
			"orc │ ⎇ main\n"},
		{"null used_percentage: no ctx", Input{Payload: ParsePayload([]byte(`{"model":{"display_name":"Sonnet 4.6"},"context_window":{"used_percentage":null,"current_usage":null}}`)),
			Place: Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: utf8Term(120)},
			"orc │ ⎇ main\nSonnet 4.6\n"},
		{"loose directory: the place, machine line kept",
			Input{Payload: ParsePayload([]byte(`{"model":{"display_name":"Opus 4.5"},"context_window":{"used_percentage":9},"cost":{"total_cost_usd":0.04}}`)),
				Place: Place{Dir: "/home/u/notes"}, Term: Terminal{Columns: 120, Color: true, UTF8: true, Home: "/home/u"}},
			"orc │ ~/notes\nOpus 4.5 │ ctx ▓░░░░░░░░░ 9% │ $0.04\n"},
		{"workspace folder with live sessions", Input{Place: Place{Dir: "/w", Workspace: "w (3 repos)", Live: 2}, Term: utf8Term(120)},
			"orc │ w (3 repos) │ 2 live\n"},
		{"legacy entry: command and phase defaults", Input{Session: &Session{Command: "session", Phase: "done", Current: true, Branch: "old/x"},
			Place: Place{InRepo: true, Branch: "old/x", Dirty: Clean}, Term: utf8Term(120)},
			"orc session done │ ⎇ old/x\n"},
		{"another branch's session is marked", Input{Session: &Session{Command: "flow", Phase: "1", Total: "3", Branch: "main"},
			Place: Place{InRepo: true, Branch: "feat/none", Dirty: Clean}, Term: utf8Term(120)},
			"orc flow 1/3 │ (session of main) │ ⎇ feat/none\n"},
		{"policy, claims, worktree, detached digest", Input{
			Payload: ParsePayload([]byte(`{"workspace":{"git_worktree":"wt1"}}`)),
			Session: &Session{Command: "flow", Phase: "5", Total: "9", Policy: "auto", SlicesDone: 3, SlicesTotal: 7, SlicesClaimed: 2, Current: true, DigestBehind: true},
			Place:   Place{InRepo: true, Detached: true, Dirty: Clean}, Term: utf8Term(160)},
			"orc flow 5/9 │ slices 3/7, 2 claimed │ auto │ ⎇ (detached) ⌗wt │ digest behind HEAD\n"},
		{"a paused session and escalated slices are shown, distinctly", Input{
			Session: &Session{Command: "flow", Phase: "4", Total: "9", Status: "paused", SlicesDone: 3, SlicesTotal: 7, SlicesEscalated: 1, Current: true},
			Place:   Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: Terminal{Columns: 160}},
			"orc flow 4/9 | paused | slices 3/7, 1 escalated | br main\n"},
		{"paused in the compact form", Input{
			Session: &Session{Command: "flow", Phase: "4", Total: "9", Status: "paused", SlicesTotal: 7, SlicesEscalated: 2, Current: true},
			Place:   Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: Terminal{Columns: 70}},
			"flow 4/9 paused 2 escalated | main\n"},
		{"paused in the minimal form", Input{
			Session: &Session{Command: "flow", Phase: "4", Total: "9", Status: "paused", Current: true},
			Place:   Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: Terminal{Columns: 40}},
			"flow 4/9 paused\n"},
		{"in progress shows no status", Input{
			Session: &Session{Command: "flow", Phase: "4", Total: "9", Status: "in_progress", Current: true},
			Place:   Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: Terminal{Columns: 40}},
			"flow 4/9\n"},
		{"manual policy is not shown, guided is", Input{Session: &Session{Command: "flow", Phase: "1", Policy: "guided", Current: true}, Term: utf8Term(120)},
			"orc flow 1 │ guided\n"},
		{"effort low, fast mode, over 200k, critical", Input{
			Payload: ParsePayload([]byte(`{"model":{"display_name":"Opus"},"effort":{"level":"low"},"fast_mode":true,"exceeds_200k_tokens":true,"context_window":{"used_percentage":93.9}}`)),
			Term:    utf8Term(120)},
			"orc\nOpus low fast │ ctx ▓▓▓▓▓▓▓▓▓░ 93%! !200k\n"},
		{"rate limit: 7d fuller, red from 85 with the reset time", Input{
			Payload: ParsePayload([]byte(`{"rate_limits":{"five_hour":{"used_percentage":40},"seven_day":{"used_percentage":88,"resets_at":"2026-08-25T09:00:00Z"}}}`)),
			Term:    utf8Term(120)},
			"orc\n7d 88% →09:00\n"},
		{"rate limit below 50: hidden", Input{Payload: ParsePayload([]byte(`{"rate_limits":{"five_hour":{"used_percentage":49.9}}}`)), Term: utf8Term(120)},
			"orc\n"},
		{"PR draft and review", Input{Payload: ParsePayload([]byte(`{"pr":{"number":9,"review_state":"draft"}}`)), Term: utf8Term(120)},
			"orc │ #9 ◌ draft\n"},
		{"reserve: effective figure with ~", Input{Payload: ParsePayload([]byte(`{"context_window":{"used_percentage":68}}`)),
			Options: Options{Reserve: 20}, Term: utf8Term(120)},
			"orc\nctx ▓▓▓▓▓▓▓▓▓░ ~85%\n"},
		{"medium (< 100): place and policy shed, short slices, PR number, cost alone",
			Input{Payload: full, Session: func() *Session { s := flowSession(); s.Policy = "auto"; return s }(), Place: repoPlace(), Term: utf8Term(99)},
			"orc flow 6/9 implement │ PROJ-142 │ 3/7 │ ⎇ feat/checkout-retry* │ #128\n" +
				"Opus 4.5 high think │ ctx ▓▓▓▓▓▓▓░░░ 68% │ $4.83 │ 5h 71%\n"},
		{"one plain line (< 80)", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: utf8Term(79)},
			"flow 6/9 | feat/checkout-r…* | 68% | Opus 4.5 | $4.83\n"},
		{"compact style at full width", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Options: Options{Style: "compact"}, Term: utf8Term(160)},
			"flow 6/9 | feat/checkout-r…* | 68% | Opus 4.5 | $4.83\n"},
		{"one plain line without a session", Input{Payload: full, Place: Place{InRepo: true, Branch: "main", Dirty: Clean}, Term: utf8Term(70)},
			"main | 68% | Opus 4.5 | $4.83\n"},
		{"minimal (< 60)", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: utf8Term(59)},
			"flow 6/9 68%\n"},
		{"minimal without a session: the branch", Input{Payload: full, Place: repoPlace(), Term: utf8Term(40)},
			"feat/checkout-retry 68%\n"},
		{"minimal with another branch's session: the branch", Input{Session: &Session{Command: "flow", Phase: "1"}, Place: Place{InRepo: true, Branch: "x"}, Term: utf8Term(40)},
			"x\n"},
		{"minimal, tiny terminal: cut", Input{Payload: full, Session: flowSession(), Term: utf8Term(8)},
			"flow 6/…\n"},
		{"off: nothing", Input{Payload: full, Session: flowSession(), Options: Options{Off: true}, Term: utf8Term(160)}, ""},
		{"no COLUMNS: 100, full", Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: Terminal{UTF8: true, Color: true}},
			"orc flow 6/9 implement │ PROJ-142 │ slices 3/7 │ ⎇ feat/checkout-retry* │ #128 ✔ approved │ shop\n" +
				"Opus 4.5 high think │ ctx ▓▓▓▓▓▓▓░░░ 68% │ $4.83 +412/−88 │ 5h 71%\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.in)
			if plain := strip(got); plain != tc.want {
				t.Errorf("got\n%s\nwant\n%s", plain, tc.want)
			}
			if !tc.in.Term.Color && strings.Contains(got, "\x1b") {
				t.Errorf("an escape without colour: %q", got)
			}
			checkShape(t, got, tc.in.Term.Columns)
		})
	}
}

// checkShape asserts what every render must hold: at most two rows, each
// ending in a newline and no wider than the terminal.
func checkShape(t *testing.T, out string, cols int) {
	t.Helper()
	if cols <= 0 {
		cols = DefaultColumns
	}
	if out == "" {
		return
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output does not end in a newline: %q", out)
	}
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) > MaxRows {
		t.Errorf("%d rows: %q", len(rows), out)
	}
	for _, r := range rows {
		if n := safetext.Width(strip(r)); n > cols {
			t.Errorf("row %q is %d columns, over %d", strip(r), n, cols)
		}
	}
}

func TestRenderColours(t *testing.T) {
	full := ParsePayload([]byte(fullPayload))
	got := Render(Input{Payload: full, Session: flowSession(), Place: repoPlace(), Term: utf8Term(160)})
	for _, want := range []string{
		bold + cyan + "flow 6/9" + reset,        // the session
		green + "⎇ feat/checkout-retry" + reset, // the branch
		red + "*" + reset,                       // dirty
		green + "#128 ✔ approved" + reset,       // PR approved
		yellow + "▓▓▓▓▓▓▓░░░ 68%" + reset,       // yellow tier
		magenta + "high" + reset,                // effort
		yellow + "5h 71%" + reset,               // rate limit 50-84
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	for pct, style := range map[string]string{"42": green, "85": red, "95": red} {
		out := Render(Input{Payload: ParsePayload([]byte(`{"context_window":{"used_percentage":` + pct + `}}`)), Term: utf8Term(120)})
		if !strings.Contains(out, style+strings.Repeat("▓", 0)) || !strings.Contains(out, "ctx "+style) {
			t.Errorf("%s%%: want the bar in %q, got %q", pct, style, out)
		}
	}
	if out := Render(Input{Payload: ParsePayload([]byte(`{"context_window":{"used_percentage":95}}`)), Term: utf8Term(120)}); !strings.Contains(out, red+bold+"!"+reset) {
		t.Errorf("critical: no bold red mark in %q", out)
	}
}

// TestRenderControls: text from the payload or a hand-edited registry
// cannot reach the terminal as control sequences or extra rows.
func TestRenderControls(t *testing.T) {
	p := ParsePayload([]byte(`{"model":{"display_name":"Opus\u001b[5m 4.6\nInjected\u0007"},"effort":{"level":"hi\rgh"},"workspace":{"repo":{"name":"sh\u009bop"}}}`))
	s := &Session{Command: "flow\x1b]0;owned\x07", Phase: "1", Label: "in\x1b]0;owned\x07it", Jira: "A-1\n", Current: true}
	for _, term := range []Terminal{utf8Term(160), {Columns: 160}, utf8Term(70), utf8Term(50)} {
		out := Render(Input{Payload: p, Session: s, Place: Place{InRepo: true, Branch: "ma\x1bin"}, Term: term})
		body := strings.ReplaceAll(ansi.ReplaceAllString(out, ""), "\n", "")
		for _, r := range body {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("control %U reached the output: %q", r, out)
			}
		}
		checkShape(t, out, term.Columns)
	}
}

// TestRenderWidths: at every width from 1 to 200 and in every mode, no
// row is wider than the terminal and there are at most two.
func TestRenderWidths(t *testing.T) {
	long := ParsePayload([]byte(`{"model":{"display_name":"` + strings.Repeat("M", 90) + `"},"effort":{"level":"xhigh"},"thinking":{"enabled":true},"fast_mode":true,
	  "context_window":{"used_percentage":91},"exceeds_200k_tokens":true,"cost":{"total_cost_usd":123.456,"total_lines_added":99999,"total_lines_removed":88888},
	  "rate_limits":{"five_hour":{"used_percentage":97,"resets_at":1774980000}},"pr":{"number":123456,"review_state":"approved"},"workspace":{"repo":{"name":"` + strings.Repeat("r", 70) + `"}}}`))
	s := &Session{Command: strings.Repeat("c", 50), Phase: "12", Total: "99", Label: strings.Repeat("l", 80), Jira: "PROJ-12345",
		SlicesDone: 10, SlicesTotal: 99, SlicesClaimed: 3, SlicesEscalated: 4, Status: "paused", Policy: "auto", Branch: strings.Repeat("b", 80), DigestBehind: true}
	for _, current := range []bool{true, false} {
		s.Current = current
		for cols := 1; cols <= 200; cols++ {
			for _, term := range []Terminal{{Columns: cols, Color: true, UTF8: true}, {Columns: cols}} {
				out := Render(Input{Payload: long, Session: s, Place: Place{InRepo: true, Branch: strings.Repeat("é", 90), Dirty: Modified, Linked: true}, Term: term})
				checkShape(t, out, cols)
				if !term.UTF8 {
					for _, r := range out {
						if r >= utf8.RuneSelf {
							t.Fatalf("non-ASCII %q in a non-UTF-8 render at %d columns: %q", r, cols, out)
						}
					}
				}
			}
		}
	}
}

// TestWideText: CJK and emoji take two columns, combining marks none; rows
// are measured and cut in columns, and bidirectional controls cannot
// reorder a row.
func TestWideText(t *testing.T) {
	for s, want := range map[string]int{"main": 4, "機能/決済": 9, "e\u0301": 1, "🚀x": 3, "a\u200db": 2} {
		if got := safetext.Width(s); got != want {
			t.Errorf("safetext.Width(%q) = %d, want %d", s, got, want)
		}
	}
	if got := clipPlain("機能機能機能", 6); got != "機能…" || safetext.Width(got) > 6 {
		t.Errorf("clipPlain = %q", got)
	}
	if got := clean("a\u202eb\u2066c", 10); got != "a b c" {
		t.Errorf("clean kept a bidi control: %q", got)
	}
	p := ParsePayload([]byte(fullPayload))
	s := &Session{Command: "流れ", Phase: "6", Total: "9", Label: strings.Repeat("実装", 30), Branch: "機能/決済", Current: true}
	for cols := 1; cols <= 160; cols++ {
		out := Render(Input{Payload: p, Session: s, Place: Place{InRepo: true, Branch: "機能/決済-" + strings.Repeat("長", 40), Dirty: Modified}, Term: utf8Term(cols)})
		checkShape(t, out, cols)
	}
}

func TestParsePayloadLenient(t *testing.T) {
	for _, in := range []string{``, `garbage {{`, `[1,2]`, `null`, `"x"`, `{"model":7,"context_window":{"used_percentage":"42"},"cost":{"total_cost_usd":"1"},"pr":{"number":"5"}}`} {
		p := ParsePayload([]byte(in))
		if p.Model != "" || p.Context != nil || p.Cost != nil || p.PR != 0 {
			t.Errorf("%q: %+v", in, p)
		}
	}
	for _, pct := range []string{`-3`, `150`, `{"value":42}`, `"42"`, `true`} {
		if p := ParsePayload([]byte(`{"context_window":{"used_percentage":` + pct + `}}`)); p.Context != nil {
			t.Errorf("used_percentage %s read as %v", pct, *p.Context)
		}
	}
	p := ParsePayload([]byte(`{"cwd":"/a","rate_limits":{"five_hour":{"resets_at":"2026-08-22T17:00:00Z"},"seven_day":{"resets_at":1774980000}},"pr":{"number":0}}`))
	if p.Dir != "/a" || p.Reset5h.IsZero() || p.Reset7d.Unix() != 1774980000 || p.PR != 0 {
		t.Errorf("%+v", p)
	}
}

// FuzzRender: any stdin the host could send renders without a panic, in at
// most two rows no wider than the terminal, with no control character but
// the colour escapes.
func FuzzRender(f *testing.F) {
	f.Add([]byte(fullPayload), 100)
	f.Add([]byte(`{"context_window":{"used_percentage":1e308},"cost":{"total_cost_usd":-1},"pr":{"number":1e20}}`), 70)
	f.Add([]byte(`{"model":{"display_name":"\u202e\u0000x"},"rate_limits":{"five_hour":{"used_percentage":99,"resets_at":"x"}}}`), 50)
	f.Add([]byte(`[]`), 1)
	f.Fuzz(func(t *testing.T, data []byte, cols int) {
		cols = cols%300 + 1
		if cols < 1 {
			cols += 300
		}
		p := ParsePayload(data)
		s := &Session{Command: p.Model, Phase: p.Effort, Label: p.PRState, Branch: p.Worktree, Current: len(data)%2 == 0}
		for _, term := range []Terminal{{Columns: cols, Color: true, UTF8: true}, {Columns: cols}} {
			out := Render(Input{Payload: p, Session: s, Place: Place{InRepo: true, Branch: p.RepoName}, Term: term})
			checkShape(t, out, cols)
			for _, r := range strings.ReplaceAll(ansi.ReplaceAllString(out, ""), "\n", "") {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Fatalf("control %U in %q", r, out)
				}
			}
		}
	})
}
