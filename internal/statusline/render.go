// Package statusline owns orc-state's Claude Code statusline: the rendering
// (pure functions from the host's payload, the orc session and the place to
// text, table-tested), the context tiers that hook post-tool-use shares, and
// the statusline's private files (a git cache and a context file per Claude
// Code session, in a per-user temp dir; see files.go), and what a render
// gathers before it draws (gather.go: Show reads the place, the session
// through sessionline and the cached look at git; Refresh is the detached
// refresher that fills that cache). The CLI parses the flags and prints.
//
// The rendering follows the original's rules (reference-orc.md, "Statusline"):
// line 1 is the work (orc session, Jira key, slices, policy, branch with dirty
// and worktree marks, PR, place), line 2 the machine (model with effort and
// thinking, a context bar coloured by tier, cost and lines, the 5 h / 7 d rate
// limit from 50 %). Width tiers: < 60 columns one minimal line, < 80 (or the
// compact style) one plain line, < 100 medium, else full; segments that do
// not fit are dropped from the end. NO_COLOR gives plain ASCII; a non-UTF-8
// locale gives ASCII glyphs.
package statusline

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/safetext"
)

// Session is the orc session the statusline shows, as `line` reads it.
type Session struct {
	Command       string
	Phase         string // "3", "done", "?"
	Total         string // "" when unknown
	Label         string
	Jira          string
	Policy        string // autopilotLevel; "" or manual shows nothing
	Branch        string // the session's git branch
	SlicesDone    int
	SlicesTotal   int // 0: no ledger, nothing shown
	SlicesClaimed int // slices under a live claim (shown as ", n claimed")
	// SlicesEscalated counts escalated slices (shown as ", n escalated"):
	// a retry budget ran out and a person must decide.
	SlicesEscalated int
	// Status is the session's status; anything but in_progress (paused
	// above all: a gate paused it and a person must act) is shown after
	// the phase, in every form.
	Status       string
	Current      bool
	DigestBehind bool // the digest's Suite sha is not the branch head
}

// Dirty is what is known of the work tree.
type Dirty int

// DirtyUnknown renders "?" after the branch: the cache missed and git did
// not answer in time, or could not answer, so the tree is not shown as
// clean; Clean renders no mark, Modified "*".
const (
	DirtyUnknown Dirty = iota
	Clean
	Modified
)

// Place is where the render runs.
type Place struct {
	InRepo    bool
	Branch    string // "" when detached or outside a repository
	Detached  bool
	Dirty     Dirty
	Linked    bool   // a linked worktree
	Dir       string // the directory, for a place outside any repository
	Workspace string // "name (N repos)" when Dir holds several repositories
	Live      int    // live sessions in that workspace's registry
}

// Options are the user's choices (the original's userConfig keys).
type Options struct {
	Off     bool   // statusline: false: print nothing (the context file is still written)
	Style   string // "compact" forces the one-line form; anything else is full
	Reserve int    // statusline_context_reserve: percent of the window kept back
}

// Terminal is what the host's environment says about the screen.
type Terminal struct {
	Columns  int // 0: unknown, rendered as 100
	Color    bool
	UTF8     bool
	Location *time.Location // for rate-limit reset times; nil is UTC
	Home     string         // shown as ~ in a loose directory
}

// Input is everything one render depends on.
type Input struct {
	Payload Payload
	Session *Session // nil: no live session
	Place   Place
	Options Options
	Term    Terminal
}

// MaxRows is the most rows a render prints.
const MaxRows = 2

// DefaultColumns is the width assumed when the host gives none.
const DefaultColumns = 100

// Render returns the statusline: at most MaxRows rows, each ending in a
// newline, none wider than the terminal; "" when the user turned it off.
func Render(in Input) string {
	if in.Options.Off {
		return ""
	}
	out := render(in)
	if !in.Term.UTF8 {
		out = asciiOnly(out)
	}
	return out
}

func render(in Input) string {
	w := in.Term.Columns
	if w <= 0 {
		w = DefaultColumns
	}
	if w < 60 {
		return clipPlain(minimal(in), w) + "\n"
	}
	if w < 80 || in.Options.Style == "compact" {
		return clipPlain(compact(in), w) + "\n"
	}
	r := newRenderer(in)
	medium := w < 100
	out := ""
	for _, row := range [][]segment{r.work(medium), r.machine(medium)} {
		if line := r.fit(w, row); line != "" {
			out += line + "\n"
		}
	}
	return out
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

// span is text in one style; a segment is what a separator goes between.
type span struct{ style, text string }
type segment []span

func (s segment) width() int {
	n := 0
	for _, sp := range s {
		n += safetext.Width(sp.text)
	}
	return n
}

func (s segment) render(color bool) string {
	var b strings.Builder
	for _, sp := range s {
		if color && sp.style != "" && sp.text != "" {
			b.WriteString(sp.style + sp.text + reset)
		} else {
			b.WriteString(sp.text)
		}
	}
	return b.String()
}

func seg(spans ...span) segment  { return segment(spans) }
func sp(style, text string) span { return span{style, text} }

// glyphs are the symbols of one character set.
type glyphs struct {
	branch, worktree, fill, empty, barL, barR, minus string
	approved, changes, draft, review, sep, arrow     string
}

var (
	unicodeGlyphs = glyphs{branch: "⎇ ", worktree: "⌗wt", fill: "▓", empty: "░", minus: "−",
		approved: "✔ ", changes: "✖ ", draft: "◌ ", review: "● ", sep: "│", arrow: "→"}
	asciiGlyphs = glyphs{branch: "br ", worktree: "+wt", fill: "#", empty: "-", barL: "[", barR: "]", minus: "-",
		sep: "|", arrow: "->"}
)

type renderer struct {
	in Input
	g  glyphs
}

func newRenderer(in Input) *renderer {
	g := asciiGlyphs
	if in.Term.UTF8 && in.Term.Color {
		g = unicodeGlyphs
	}
	return &renderer{in: in, g: g}
}

// work is line 1.
func (r *renderer) work(medium bool) []segment {
	s, p, g := r.in.Session, r.in.Place, r.g
	var row []segment
	if s != nil {
		orc := seg(sp(dim, "orc"), sp("", " "), sp(bold+cyan, phaseText(s)))
		if label := clean(s.Label, 40); label != "" {
			orc = append(orc, sp("", " "+label))
		}
		row = append(row, orc)
		if st := statusText(s); st != "" {
			row = append(row, seg(sp(bold+red, st)))
		}
		if !s.Current {
			row = append(row, seg(sp(yellow, "(session of "+clean(s.Branch, 40)+")")))
		}
		if jira := clean(s.Jira, 24); jira != "" {
			row = append(row, seg(sp(dim, jira)))
		}
		if s.SlicesTotal > 0 {
			text := fmt.Sprintf("slices %d/%d", s.SlicesDone, s.SlicesTotal)
			if medium {
				text = fmt.Sprintf("%d/%d", s.SlicesDone, s.SlicesTotal)
			}
			if s.SlicesClaimed > 0 {
				text += fmt.Sprintf(", %d claimed", s.SlicesClaimed)
			}
			sl := seg(sp("", text))
			if s.SlicesEscalated > 0 {
				sl = append(sl, sp(bold+red, fmt.Sprintf(", %d escalated", s.SlicesEscalated)))
			}
			row = append(row, sl)
		}
		if policy := clean(s.Policy, 16); !medium && policy != "" && policy != "manual" {
			style := yellow
			if policy == "guided" {
				style = dim
			}
			row = append(row, seg(sp(style, policy)))
		}
	} else {
		row = append(row, seg(sp(dim, "orc")))
	}
	if name := branchName(p); name != "" {
		b := seg(sp(green, g.branch+name))
		switch p.Dirty {
		case Modified:
			b = append(b, sp(red, "*"))
		case DirtyUnknown:
			b = append(b, sp(dim, "?"))
		}
		if p.Linked || r.in.Payload.Worktree != "" {
			b = append(b, sp("", " "), sp(dim, g.worktree))
		}
		row = append(row, b)
	}
	if s != nil && s.DigestBehind {
		row = append(row, seg(sp(red, "digest behind HEAD")))
	}
	if pr := r.pr(medium); pr != nil {
		row = append(row, pr)
	}
	if !medium {
		row = append(row, r.place()...)
	}
	return row
}

func (r *renderer) pr(medium bool) segment {
	n := r.in.Payload.PR
	if n <= 0 {
		return nil
	}
	num := "#" + strconv.FormatInt(n, 10)
	style, mark, word := yellow, r.g.review, "review"
	switch r.in.Payload.PRState {
	case "approved":
		style, mark, word = green, r.g.approved, "approved"
	case "changes_requested":
		style, mark, word = red, r.g.changes, "changes"
	case "draft":
		style, mark, word = dim, r.g.draft, "draft"
	}
	if medium {
		return seg(sp(style, num))
	}
	return seg(sp(style, num+" "+mark+word))
}

func (r *renderer) place() []segment {
	p := r.in.Place
	switch {
	case p.InRepo:
		if name := clean(r.in.Payload.RepoName, 40); name != "" {
			return []segment{seg(sp(dim, name))}
		}
	case p.Workspace != "":
		out := []segment{seg(sp(dim, clean(p.Workspace, 60)))}
		if p.Live > 0 {
			out = append(out, seg(sp("", fmt.Sprintf("%d live", p.Live))))
		}
		return out
	case p.Dir != "":
		return []segment{seg(sp(dim, clean(homeRelative(p.Dir, r.in.Term.Home), 60)))}
	}
	return nil
}

// machine is line 2.
func (r *renderer) machine(medium bool) []segment {
	p, g := r.in.Payload, r.g
	var row []segment
	if model := clean(p.Model, 40); model != "" {
		m := seg(sp("", model))
		switch effort := clean(p.Effort, 12); effort {
		case "":
		case "low":
			m = append(m, sp("", " "), sp(dim, effort))
		case "high", "xhigh", "max":
			m = append(m, sp("", " "), sp(magenta, effort))
		default:
			m = append(m, sp("", " "+effort))
		}
		if p.Thinking {
			m = append(m, sp("", " "), sp(dim, "think"))
		}
		if p.Fast {
			m = append(m, sp("", " "), sp(yellow, "fast"))
		}
		row = append(row, m)
	}
	if c, ok := contextOf(p, r.in.Options.Reserve); ok {
		cells := (c.eff + 5) / 10
		if cells > 10 {
			cells = 10
		}
		bar := g.barL + strings.Repeat(g.fill, cells) + strings.Repeat(g.empty, 10-cells) + g.barR
		ctx := seg(sp("", "ctx "), sp(tierStyle(c.tier), bar+" "+c.figure()))
		if c.tier == Critical {
			ctx = append(ctx, sp(red+bold, "!"))
		}
		if p.Over200k {
			ctx = append(ctx, sp("", " "), sp(red, "!200k"))
		}
		row = append(row, ctx)
	}
	if p.Cost != nil {
		cost := seg(sp("", fmt.Sprintf("$%.2f", *p.Cost)))
		if !medium && (p.LinesAdded != nil || p.LinesRemove != nil) {
			cost = append(cost, sp("", " "), sp(green, fmt.Sprintf("+%d", deref(p.LinesAdded))), sp("", "/"),
				sp(red, fmt.Sprintf("%s%d", g.minus, deref(p.LinesRemove))))
		}
		row = append(row, cost)
	}
	if rate := r.rate(); rate != nil {
		row = append(row, rate)
	}
	return row
}

// rate shows the fuller of the 5 h and 7 d windows from 50 %; from 85 % in
// red with the time it resets.
func (r *renderer) rate() segment {
	p := r.in.Payload
	if p.Rate5h == nil && p.Rate7d == nil {
		return nil
	}
	r5, r7 := -1, -1
	if p.Rate5h != nil {
		r5 = int(*p.Rate5h)
	}
	if p.Rate7d != nil {
		r7 = int(*p.Rate7d)
	}
	used, window, resets := r5, "5h", p.Reset5h
	if r7 > r5 {
		used, window, resets = r7, "7d", p.Reset7d
	}
	if used < 50 {
		return nil
	}
	text := fmt.Sprintf("%s %d%%", window, used)
	if used < 85 {
		return seg(sp(yellow, text))
	}
	if !resets.IsZero() {
		loc := r.in.Term.Location
		if loc == nil {
			loc = time.UTC
		}
		text += " " + r.g.arrow + resets.In(loc).Format("15:04")
	}
	return seg(sp(red, text))
}

// fit joins the segments with the separator, dropping segments from the
// end until the row fits w columns; a first segment wider than w alone is
// cut.
func (r *renderer) fit(w int, row []segment) string {
	sep := seg(sp("", " "), sp(dim, r.g.sep), sp("", " "))
	for n := len(row); n > 0; n-- {
		width := sep.width() * (n - 1)
		for _, s := range row[:n] {
			width += s.width()
		}
		if width > w {
			continue
		}
		var b strings.Builder
		for i, s := range row[:n] {
			if i > 0 {
				b.WriteString(sep.render(r.in.Term.Color))
			}
			b.WriteString(s.render(r.in.Term.Color))
		}
		return b.String()
	}
	if len(row) == 0 {
		return ""
	}
	var plain strings.Builder
	for _, s := range row[0] {
		plain.WriteString(s.text)
	}
	return clipPlain(plain.String(), w)
}

// minimal is the form below 60 columns: the session (or the branch, or the
// place) and the context figure.
func minimal(in Input) string {
	var text string
	switch s := in.Session; {
	case s != nil && s.Current:
		text = phaseText(s)
		if st := statusText(s); st != "" {
			text += " " + st
		}
	case branchName(in.Place) != "":
		text = branchName(in.Place)
	default:
		text = firstOf(placeName(in), "orc")
	}
	if c, ok := contextOf(in.Payload, in.Options.Reserve); ok {
		text += " " + c.figure()
	}
	return text
}

// compact is the one plain line of 60–79 columns (or the compact style).
func compact(in Input) string {
	branch := clipPlain(branchName(in.Place), 16)
	if branch != "" {
		branch += dirtyMark(in.Place.Dirty)
	}
	var parts []string
	if s := in.Session; s != nil {
		head := phaseText(s)
		if st := statusText(s); st != "" {
			head += " " + st
		}
		if s.SlicesEscalated > 0 {
			head += fmt.Sprintf(" %d escalated", s.SlicesEscalated)
		}
		if !s.Current {
			head += " of " + clean(s.Branch, 16)
		}
		parts = append(parts, head)
		if branch != "" {
			parts = append(parts, branch)
		}
	} else {
		parts = append(parts, firstOf(branch, placeName(in), "orc"))
	}
	if c, ok := contextOf(in.Payload, in.Options.Reserve); ok {
		parts = append(parts, c.figure())
	}
	if m := clean(in.Payload.Model, 40); m != "" {
		parts = append(parts, m)
	}
	if in.Payload.Cost != nil {
		parts = append(parts, fmt.Sprintf("$%.2f", *in.Payload.Cost))
	}
	return strings.Join(parts, " | ")
}

// reading is the context figure of one render.
type reading struct {
	raw, eff int
	approx   bool
	tier     Tier
}

func (c reading) figure() string {
	if c.approx {
		return fmt.Sprintf("~%d%%", c.eff)
	}
	return fmt.Sprintf("%d%%", c.eff)
}

func contextOf(p Payload, reserve int) (reading, bool) {
	if p.Context == nil {
		return reading{}, false
	}
	raw, eff, approx := Effective(*p.Context, reserve)
	return reading{raw: raw, eff: eff, approx: approx, tier: TierOf(eff)}, true
}

func tierStyle(t Tier) string {
	switch t {
	case Green:
		return green
	case Yellow:
		return yellow
	}
	return red
}

// statusText is the session's status when it is not in progress ("" when
// it is, or unknown): a paused session must not look as if it ran.
func statusText(s *Session) string {
	if s.Status == "" || s.Status == "in_progress" {
		return ""
	}
	return clean(s.Status, 16)
}

// phaseText is "flow 6/9": command and phase of total.
func phaseText(s *Session) string {
	text := clean(s.Command, 30) + " " + clean(s.Phase, 12)
	if s.Total != "" {
		text += "/" + clean(s.Total, 12)
	}
	return text
}

// dirtyMark is what follows the branch in the plain forms: "*" for a
// modified tree, "?" when it is not known, nothing for a clean one.
func dirtyMark(d Dirty) string {
	switch d {
	case Modified:
		return "*"
	case DirtyUnknown:
		return "?"
	}
	return ""
}

func branchName(p Place) string {
	switch {
	case !p.InRepo:
		return ""
	case p.Detached:
		return "(detached)"
	}
	return clean(p.Branch, 60)
}

func placeName(in Input) string {
	p := in.Place
	switch {
	case p.InRepo:
		return clean(in.Payload.RepoName, 40)
	case p.Workspace != "":
		return clean(p.Workspace, 60)
	}
	return clean(homeRelative(p.Dir, in.Term.Home), 60)
}

func homeRelative(dir, home string) string {
	if home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if strings.HasPrefix(dir, home+"/") {
			return "~" + dir[len(home):]
		}
	}
	return dir
}

// clean makes text from the payload or the registry safe for one terminal
// row: invalid UTF-8, every control character (ESC, BEL, newlines...) and
// the bidirectional controls (which would reorder the row) become spaces,
// runs of space collapse, and it is cut to max columns.
func clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Bidi_Control, r)
	}), " ")
	return clipPlain(s, max)
}

// asciiOnly is s for a terminal whose locale is not UTF-8: the ellipsis
// becomes '.', any other non-ASCII character '?' (one column each, so the
// widths hold).
func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < utf8.RuneSelf:
			return r
		case r == '…':
			return '.'
		}
		return '?'
	}, s)
}

// clipPlain cuts s to w columns, ending in an ellipsis when cut.
func clipPlain(s string, w int) string {
	if safetext.Width(s) <= w {
		return s
	}
	room := w - 1 // the ellipsis takes one
	if w <= 1 {
		room = w
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		if used+safetext.Cells(r) > room {
			break
		}
		used += safetext.Cells(r)
		b.WriteRune(r)
	}
	if w > 1 {
		b.WriteString("…")
	}
	return b.String()
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func deref(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}
