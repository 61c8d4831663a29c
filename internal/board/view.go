package board

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/orc-state/orc-state/internal/safetext"
)

// View is how a Board is drawn: the terminal's width in columns (0: no
// limit), whether to colour, and the time ages and leases are judged by.
type View struct {
	Width int
	Color bool
	Now   time.Time
}

// ANSI styles.
const (
	reset   = "\x1b[0m"
	bold    = "\x1b[1m"
	dim     = "\x1b[2m"
	red     = "\x1b[31m"
	green   = "\x1b[32m"
	yellow  = "\x1b[33m"
	magenta = "\x1b[35m"
	cyan    = "\x1b[36m"
)

// span is text in one style; a line is a row of spans.
type span struct{ style, text string }
type line []span

func sp(style, text string) span { return span{style, text} }

// Render draws b as v says: every session, then the board's problems;
// every line fitted to v.Width (cut with "…"), every name from the data
// escaped (safetext.Escape), colour only when v.Color.
func Render(b Board, v View) string {
	var lines []line
	if len(b.Sessions) == 0 {
		lines = append(lines, line{sp(dim, "no live session (orc-state board --all shows every session)")})
	} else {
		lines = append(lines, summary(b), line{})
	}
	for i, s := range b.Sessions {
		if i > 0 {
			lines = append(lines, line{})
		}
		lines = append(lines, sessionLines(s, v)...)
	}
	for _, p := range b.Problems {
		lines = append(lines, line{sp(red, "problem: "), sp("", esc(p))})
	}
	var out strings.Builder
	for _, l := range lines {
		out.WriteString(fit(l, v.Width, v.Color))
		out.WriteByte('\n')
	}
	return out.String()
}

func esc(s string) string { return safetext.Escape(s) }

// summary is the board's first line: the sessions by status, the claims
// (how many expired), the findings.
func summary(b Board) line {
	by := map[string]int{}
	var order []string
	claims, expired, findings := 0, 0, 0
	for _, s := range b.Sessions {
		if by[s.Status] == 0 {
			order = append(order, s.Status)
		}
		by[s.Status]++
		findings += len(s.Findings)
		if s.Slices != nil {
			for _, o := range s.Slices.Open {
				if o.ClaimedBy != "" {
					claims++
					if o.Expired {
						expired++
					}
				}
			}
		}
	}
	var parts []string
	for _, st := range order {
		parts = append(parts, fmt.Sprintf("%d %s", by[st], esc(st)))
	}
	l := line{sp(bold, plural(len(b.Sessions), "session")), sp("", " ("+strings.Join(parts, ", ")+")"),
		sp(dim, " · "), sp("", plural(claims, "claim"))}
	if expired > 0 {
		l = append(l, sp(bold+red, fmt.Sprintf(" (%d expired)", expired)))
	}
	style := ""
	if findings > 0 {
		style = red
	}
	return append(l, sp(dim, " · "), sp(style, plural(findings, "finding")))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// statusStyle makes paused and escalated stand out.
func statusStyle(status string) string {
	switch status {
	case "in_progress":
		return green
	case "paused":
		return bold + yellow
	case "escalated", "abandoned", "red":
		return bold + red
	case "green", "committed", "completed":
		return green
	}
	return ""
}

// sessionLines is one session's block.
func sessionLines(s Session, v View) []line {
	head := line{sp(bold+cyan, esc(s.SessionID)), sp("", "  "), sp("", esc(s.Command)),
		sp(dim, "  on "), sp("", esc(s.GitBranch)), sp("", "  "), sp(statusStyle(s.Status), "["+esc(s.Status)+"]"),
		sp(dim, "  updated "+ago(s.UpdatedAt, v.Now))}
	out := []line{head}
	phase := line{sp(dim, "  phase "), sp("", s.Phase.String()+"/"+strconv.Itoa(s.TotalPhases)+" ")}
	n := s.Phase.N
	if s.Phase.Done {
		n = s.TotalPhases
	}
	phase = append(phase, bar(n, s.TotalPhases, 20)...)
	if s.PhaseLabel != "" {
		phase = append(phase, sp("", "  "+esc(s.PhaseLabel)))
	}
	out = append(out, phase)
	if s.Next != "" {
		out = append(out, line{sp(dim, "  next: "), sp("", esc(s.Next))})
	}
	if sl := s.Slices; sl != nil {
		l := line{sp(dim, "  slices "), sp("", fmt.Sprintf("%d/%d ", sl.Done, sl.Total))}
		l = append(l, bar(sl.Done, sl.Total, 20)...)
		l = append(l, sp("", "  "+counts(sl.ByStatus)))
		if sl.MaxAttempts > 0 {
			l = append(l, sp(dim, fmt.Sprintf("  budget %d attempts", sl.MaxAttempts)))
		}
		out = append(out, l)
		for _, o := range sl.Open {
			out = append(out, sliceLine(o, sl.MaxAttempts, v.Now))
		}
	}
	for _, w := range s.Worktrees {
		branch, agent := w.Branch, w.Agent
		if branch == "" {
			branch = "-"
		}
		if agent == "" {
			agent = "-"
		}
		style := green
		switch w.Tree {
		case "dirty":
			style = yellow
		case "gone", "unknown":
			style = red
		}
		out = append(out, line{sp(dim, "  worktree "), sp("", esc(w.Path)), sp("", "  "+esc(branch)),
			sp(dim, "  agent "), sp("", esc(agent)), sp("", "  "), sp(style, w.Tree)})
	}
	for _, d := range s.OpenDecisions {
		out = append(out, line{sp(magenta, "  decision open: "), sp("", esc(d))})
	}
	for _, e := range s.Events {
		out = append(out, line{sp(dim, "  "+ago(e.At, v.Now)+"  "), sp("", esc(e.Actor)), sp("", "  "), sp("", esc(e.Verb))})
	}
	for _, f := range s.Findings {
		out = append(out, line{sp(red, "  "+esc(f.Code)+": "), sp("", esc(f.Message)), sp(dim, "  next: "), sp("", esc(f.Next))})
	}
	return out
}

// sliceLine is one open slice: id, status, title, attempts, and who
// holds it with the lease left, or what it waits for.
func sliceLine(o Slice, maxAttempts int, now time.Time) line {
	l := line{sp("", "    "), sp(bold, esc(o.ID)), sp("", " "), sp(statusStyle(o.Status), esc(o.Status))}
	if o.Title != "" {
		l = append(l, sp("", "  "+esc(o.Title)))
	}
	if o.Attempts > 0 {
		style := dim
		if maxAttempts > 0 && o.Attempts >= maxAttempts {
			style = red
		}
		a := fmt.Sprintf("  attempt %d", o.Attempts)
		if maxAttempts > 0 {
			a += fmt.Sprintf("/%d", maxAttempts)
		}
		l = append(l, sp(style, a))
	}
	switch {
	case o.ClaimedBy != "":
		l = append(l, sp(dim, "  held by "), sp("", esc(o.ClaimedBy)))
		until, err := time.Parse(TimeLayout, o.Until)
		if err == nil && until.After(now) && !o.Expired {
			l = append(l, sp(cyan, "  lease "+span2(until.Sub(now))+" left"))
		} else {
			l = append(l, sp(bold+red, "  lease expired"))
		}
	case len(o.WaitsOn) > 0:
		ids := make([]string, len(o.WaitsOn))
		for i, id := range o.WaitsOn {
			ids[i] = esc(id)
		}
		l = append(l, sp(yellow, "  waits on "+strings.Join(ids, ", ")))
	case o.Status == "pending" || o.Status == "red":
		l = append(l, sp(green, "  ready"))
	}
	return l
}

// counts is "pending 2, red 1, committed 3" in the machine's order, then
// any other status.
func counts(by map[string]int) string {
	order := []string{"pending", "red", "green", "escalated", "committed", "skipped"}
	var parts []string
	seen := map[string]bool{}
	for _, st := range order {
		seen[st] = true
		if by[st] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", st, by[st]))
		}
	}
	var rest []string
	for st := range by {
		if !seen[st] {
			rest = append(rest, st)
		}
	}
	sort.Strings(rest)
	for _, st := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", esc(st), by[st]))
	}
	return strings.Join(parts, ", ")
}

// bar is a progress bar of cells columns with its percentage.
func bar(n, total, cells int) line {
	if total <= 0 {
		return line{sp(dim, "["+strings.Repeat("-", cells)+"]")}
	}
	n = max(0, min(n, total))
	full := n * cells / total
	return line{sp("", "["), sp(green, strings.Repeat("#", full)), sp(dim, strings.Repeat("-", cells-full)),
		sp("", fmt.Sprintf("] %d%%", n*100/total))}
}

// ago is how long before now stamp was: "12s ago", "3m ago", "2h ago",
// "4d ago"; "at STAMP" when it is no time or in the future.
func ago(stamp string, now time.Time) string {
	t, err := time.Parse(TimeLayout, stamp)
	if err != nil {
		return "at " + esc(stamp)
	}
	d := now.Sub(t)
	if d < 0 {
		return "just now"
	}
	return span2(d) + " ago"
}

// span2 is a duration in its largest unit: 45s, 12m, 3h, 2d.
func span2(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

// fit renders l in at most cols columns (0: any): a line that is wider
// is cut one column short and ends with "…".
func fit(l line, cols int, color bool) string {
	total := 0
	for _, s := range l {
		total += safetext.Width(s.text)
	}
	budget := -1 // no cut
	if cols > 0 && total > cols {
		budget = cols - 1
	}
	var b strings.Builder
	used := 0
	for _, s := range l {
		text := s.text
		cut := false
		if w := safetext.Width(text); budget >= 0 && used+w > budget {
			text, w = clip(text, budget-used)
			text += "…"
			cut = true
		}
		used += safetext.Width(text)
		if color && s.style != "" && text != "" {
			b.WriteString(s.style + text + reset)
		} else {
			b.WriteString(text)
		}
		if cut {
			break
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// clip is the longest prefix of s that takes at most n columns.
func clip(s string, n int) (string, int) {
	used := 0
	for i, r := range s {
		c := safetext.Cells(r)
		if used+c > n {
			return s[:i], used
		}
		used += c
	}
	return s, used
}
