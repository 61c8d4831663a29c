package packet

import (
	"fmt"
	"sort"
	"strings"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// part is one section of the rendered packet; parts with a higher drop
// rank are omitted first when the packet is over its bound.
type part struct {
	title string
	lines []string
	drop  int // 0: never dropped
}

// Bounds of the rendered packet: each line, and each list section.
const (
	maxLineRunes = 240
	maxListLines = 8
)

// Markdown renders the packet within max bytes, At a glance first. Lines
// are cleaned of control characters and capped; long lists keep their
// first entries and say how many more there are; over the bound, whole
// sections are omitted by rank (named in an "Omitted" line); as a last
// resort the packet ends at a line boundary with a note. It is a display:
// the state files themselves are never shortened.
func (p Packet) Markdown(max int) string {
	s := p.Session
	label := registry.Deref(s.PhaseLabel)
	entry := []string{
		fmt.Sprintf("- Session: %s (branch %s), %s, phase %s/%d %s", s.SessionID, s.GitBranch, s.Command, s.Phase, s.TotalPhases, label),
		fmt.Sprintf("- Status: %s; updated %s", s.Status, s.UpdatedAt),
	}
	if s.JiraTicket != nil {
		entry = append(entry, "- Jira: "+*s.JiraTicket)
	}
	if len(s.LinkedPRs) > 0 {
		entry = append(entry, fmt.Sprintf("- Linked PRs: %d (latest %s)", len(s.LinkedPRs), s.LinkedPRs[len(s.LinkedPRs)-1].URL))
	}
	gitLines := []string{fmt.Sprintf("- HEAD: %s %s (%s)", shortSHA(p.Head), p.HeadSubject, p.HeadState)}
	switch { // no commit: the state says it all
	case p.Head == "" && strings.HasPrefix(p.HeadState, "unknown"):
		gitLines[0] = "- HEAD: " + p.HeadState
	case p.Head == "":
		gitLines[0] = "- HEAD: (" + p.HeadState + ")"
	}
	if p.Worktree != "" {
		gitLines = append(gitLines, "- Worktree: "+p.Worktree)
	}
	switch {
	case p.DirtyNote != "":
		gitLines = append(gitLines, "- Dirty: "+p.DirtyNote)
	default:
		gitLines = append(gitLines, fmt.Sprintf("- Dirty: %d file(s)", len(p.Dirty)))
	}
	gitLines = append(gitLines, capList(bullets("  - ", p.Dirty), maxListLines, "  - ")...)
	reentry := []string{}
	if p.ReentrySlice != "" {
		reentry = append(reentry, "- Slice: "+p.ReentrySlice)
	}
	if p.NextArtifact != nil {
		st := "exists"
		if !p.NextArtifact.Exists {
			st = "missing"
		}
		reentry = append(reentry, fmt.Sprintf("- Next artifact: %s (%s)", p.NextArtifact.Path, st))
	}
	findings := []string{}
	for _, f := range p.Findings {
		findings = append(findings, fmt.Sprintf("- %s: %s (next: %s)", f.Code, f.Message, f.Next))
	}
	if len(findings) == 0 {
		findings = append(findings, "- none")
	}
	parts := []part{
		{"## At a glance", glance(p, gitLines[0], dirtyCount(p)), glanceRank(max)},
		{"## Session", entry, 0},
		{"## Resume digest", lines(p.Digest), 0},
		{"## Git", gitLines, 2},
		{"## Cross-check", capList(bullets("- ", p.CrossCheck), maxListLines, "- "), 0},
		{"## Re-entry", reentry, 0},
		{"## Claims", capList(bullets("- ", p.Claims), maxListLines, "- "), 3},
		{"## Findings (orc-state verify)", capList(findings, maxListLines, "- "), 3},
		{"## Open decisions", lines(p.Open), 4},
		{"## Auto-checkpoint", lines(p.Auto), 5},
		{"## Last commits", bullets("- ", p.Commits), 6},
	}
	for i := range parts {
		for j, l := range parts[i].lines {
			parts[i].lines[j] = safetext.Clip(l, maxLineRunes)
		}
	}
	var omitted []string
	out := assemble(parts, nil)
	for rank := 7; len(out) > max && rank > 0; rank-- {
		for i := range parts {
			if parts[i].drop == rank && len(parts[i].lines) > 0 {
				parts[i].lines = nil
				omitted = append(omitted, strings.TrimPrefix(parts[i].title, "## "))
			}
		}
		out = assemble(parts, omitted)
	}
	return cutAtLine(out, max, omitted)
}

// The glance's lines are capped so that, with the hook's one-line intro,
// it ends within the first 2,000 characters of what the host shows: the
// host keeps about that much as a preview of context over 10,000.
const (
	glanceShort = 160 // session, open decisions, HEAD and dirty
	glanceLong  = 280 // next, worst findings
	glanceMid   = 200 // re-entry, own claims
	glanceWorst = 3   // findings named
)

// glance is the packet's first section: what a session needs first, in
// this order: session and phase, the digest's Next and Open decisions,
// HEAD and the dirty count, the re-entry slice, the caller's own claims,
// the worst findings. Every line is capped (glanceShort..glanceLong).
func glance(p Packet, head, dirty string) []string {
	s := p.Session
	out := []string{
		safetext.Clip(fmt.Sprintf("- Session: %s (branch %s), %s, phase %s/%d %s, %s", s.SessionID, s.GitBranch, s.Command, s.Phase, s.TotalPhases, registry.Deref(s.PhaseLabel), s.Status), glanceShort),
		safetext.Clip("- Next: "+firstOr(digestBullet(p.Digest, "Next"), "(no digest: run orc-state digest write -)"), glanceLong),
		safetext.Clip("- Open decisions: "+firstOr(digestBullet(p.Digest, "Open decisions"), "(not in the digest)"), glanceShort),
		safetext.Clip(head+"; "+dirty, glanceShort),
		safetext.Clip("- Re-entry: "+firstOr(p.ReentrySlice, "(no slice ledger)"), glanceMid),
	}
	mine := "none"
	if len(p.Mine) > 0 {
		mine = strings.Join(capList(p.Mine, 3, ""), "; ")
	}
	out = append(out, safetext.Clip("- Your claims: "+mine, glanceMid))
	worst := "none"
	if f := worstFindings(p.Findings); len(f) > 0 {
		var names []string
		for _, x := range f[:min(len(f), glanceWorst)] {
			names = append(names, x.Code+": "+x.Message)
		}
		worst = strings.Join(names, "; ")
		if len(f) > glanceWorst {
			worst += fmt.Sprintf(" (+%d more below)", len(f)-glanceWorst)
		}
	}
	return append(out, safetext.Clip("- Worst findings: "+worst, glanceLong))
}

// glanceRank is the glance's drop rank: never dropped from a packet of
// minGlanceBytes or more; in a smaller one it goes first, the entry and
// the digest it repeats being kept.
func glanceRank(max int) int {
	if max < minGlanceBytes {
		return 7
	}
	return 0
}

// minGlanceBytes is the smallest packet bound that always keeps the glance.
const minGlanceBytes = 2048

// dirtyCount is the Dirty line's figure for the glance.
func dirtyCount(p Packet) string {
	if p.DirtyNote != "" {
		return "dirty: " + p.DirtyNote
	}
	return fmt.Sprintf("dirty: %d file(s)", len(p.Dirty))
}

// digestBullet is the text of the digest's "- NAME:" bullet; "" when absent.
func digestBullet(digest, name string) string {
	for _, l := range strings.Split(digest, "\n") {
		if rest, ok := strings.CutPrefix(l, "- "+name+":"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

func firstOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// worstFindings orders findings worst first: the state itself cannot be
// trusted (interrupted transactions, journal, edits outside orc-state,
// stored secrets), then claims and slices that block agents, then the
// rest, then git's facts; ties keep verify's order.
func worstFindings(f []verify.Finding) []verify.Finding {
	rank := func(code string) int {
		for _, p := range []string{"transaction.", "journal.", "edited.", "secret.", "frontmatter.", "checkpoint."} {
			if strings.HasPrefix(code, p) {
				return 0
			}
		}
		switch {
		case strings.HasPrefix(code, "claim."), strings.HasPrefix(code, "slice."):
			return 1
		case strings.HasPrefix(code, "git."):
			return 3
		}
		return 2
	}
	out := append([]verify.Finding(nil), f...)
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Code) < rank(out[j].Code) })
	return out
}

// bullets prefixes each item, cleaned to one line.
func bullets(prefix string, items []string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, prefix+safetext.Escape(it))
	}
	return out
}

// capList keeps the first n lines and says how many more there were.
func capList(list []string, n int, prefix string) []string {
	if len(list) <= n {
		return list
	}
	return append(list[:n:n], fmt.Sprintf("%s(+%d more)", prefix, len(list)-n))
}

// cutAtLine is the last resort of the bound: it ends the packet at a line
// boundary and, in the Omitted line that always closes a shortened packet,
// names the sections dropped whole and the one the cut fell in.
func cutAtLine(out string, max int, omitted []string) string {
	if len(out) <= max {
		return out
	}
	if i := strings.Index(out, "\nOmitted to stay within"); i >= 0 {
		out = out[:i+1] // the line is rebuilt below
	}
	for limit := max; limit > 0; {
		cut := strings.LastIndexByte(out[:min(limit, len(out))], '\n')
		if cut < 0 {
			cut = 0
		}
		section := "Session"
		if h := strings.LastIndex(out[:cut], "\n## "); h >= 0 {
			section = strings.SplitN(out[h+4:], "\n", 2)[0]
		}
		line := omittedLine(append(omitted[:len(omitted):len(omitted)], "the rest of "+section+" and every section after it"))
		if cut+1+len(line) <= max {
			return out[:cut+1] + line
		}
		limit = cut // try one line earlier
	}
	return omittedLine([]string{"everything"})[1:] // max is never this small (512 at least)
}

// omittedLine is the packet's last line when it was shortened.
func omittedLine(omitted []string) string {
	return fmt.Sprintf("\nOmitted to stay within the size bound: %s (run orc-state verify, git log, orc-state get for them).\n", strings.Join(omitted, ", "))
}

func assemble(parts []part, omitted []string) string {
	var b strings.Builder
	b.WriteString("# orc-state resume packet\n")
	for _, p := range parts {
		if len(p.lines) == 0 {
			continue
		}
		b.WriteString("\n" + p.title + "\n")
		for _, l := range p.lines {
			b.WriteString(l + "\n")
		}
	}
	if len(omitted) > 0 {
		b.WriteString(omittedLine(omitted))
	}
	return b.String()
}

func lines(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// shortSHA is a commit's sha as the packet shows it: 12 digits.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
