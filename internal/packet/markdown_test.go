package packet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// smallPacket is a packet every section of which is present and short.
func smallPacket() Packet {
	label := "build"
	return Packet{
		Session: &registry.Session{SessionID: "feat-x", GitBranch: "feat/x", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, PhaseLabel: &label, Status: "in_progress", UpdatedAt: "2031-01-01T00:00:00Z"},
		Digest:  "- Done: a\n- Next: files/plan.md\n- Open decisions: none\n- Suite: unknown",
		Auto:    "- At: 2031-01-01T00:00:00Z (trigger: manual)",
		Open:    "- none",
		Head:    strings.Repeat("a", 40), HeadSubject: "base", HeadState: "branch",
		Commits:      []string{"aaaaaaa base"},
		Dirty:        []string{"x.go"},
		CrossCheck:   []string{"Suite sha abc equals HEAD"},
		ReentrySlice: "1 (pending) a — 0/1 slices done",
		Claims:       []string{"1 (red) a: claimed by b until 2031-01-01T00:30:00Z"},
		Findings:     []verify.Finding{{Code: "git.dirty", Message: "1 file dirty", Next: "git status"}},
	}
}

// many is n lines of about width characters each, as one text.
func many(n, width int) string {
	var l []string
	for i := range n {
		l = append(l, fmt.Sprintf("- %03d %s", i, strings.Repeat("w", width)))
	}
	return strings.Join(l, "\n")
}

// TestMarkdownOmitsWholeSectionsByRankAndSaysWhich: over its bound, the
// packet drops whole sections, the least needed first (Last commits,
// Auto-checkpoint, Open decisions, Claims and Findings, Git), each dropped
// with every section of its rank, and names them on its last line; what
// is never dropped (Session, Resume digest, Cross-check, Re-entry) is cut
// at a line boundary as a last resort, the Omitted line naming where.
func TestMarkdownOmitsWholeSectionsByRankAndSaysWhich(t *testing.T) {
	for _, tt := range []struct {
		name    string
		grow    func(*Packet)
		max     int
		omitted string // the Omitted line's list; "" for a whole packet
	}{
		{"within its bound: whole", func(*Packet) {}, 4096, ""},
		{"long commits go first", func(p *Packet) { p.Commits = strings.Split(many(40, 200), "\n") }, 4096,
			"Last commits"},
		{"then the auto-checkpoint", func(p *Packet) { p.Auto = many(30, 200) }, 4096,
			"Last commits, Auto-checkpoint"},
		{"then open decisions", func(p *Packet) { p.Open = many(30, 200) }, 4096,
			"Last commits, Auto-checkpoint, Open decisions"},
		{"claims and findings share a rank", func(p *Packet) {
			for i := range 8 {
				p.Claims = append(p.Claims, fmt.Sprintf("%d %s", i, strings.Repeat("c", 230)))
				p.Findings = append(p.Findings, verify.Finding{Code: "slice.x", Message: strings.Repeat("m", 200), Next: "orc-state verify"})
			}
		}, 4096, "Last commits, Auto-checkpoint, Open decisions, Claims, Findings (orc-state verify)"},
		{"the git facts last of what may go", func(p *Packet) {
			p.CrossCheck = strings.Split(many(8, 200), "\n")
			p.Digest += "\n" + many(2, 200)
			for i := range 8 {
				p.Dirty = append(p.Dirty, fmt.Sprintf("%d-%s", i, strings.Repeat("d", 230)))
			}
		}, 3000, "Last commits, Auto-checkpoint, Open decisions, Claims, Findings (orc-state verify), Git"},
		{"a digest over the bound is cut at a line", func(p *Packet) { p.Digest += "\n" + many(40, 200) }, 4096,
			"Last commits, Auto-checkpoint, Open decisions, Claims, Findings (orc-state verify), Git, the rest of Resume digest and every section after it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := smallPacket()
			tt.grow(&p)
			full := smallPacketFull(p)
			md := p.Markdown(tt.max)
			if len(md) > tt.max {
				t.Errorf("%d bytes, over %d", len(md), tt.max)
			}
			if !strings.HasPrefix(md, "# orc-state resume packet\n\n## At a glance\n") {
				t.Errorf("does not open with the glance:\n%s", md)
			}
			lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
			last := lines[len(lines)-1]
			if tt.omitted == "" {
				if md != full || strings.HasPrefix(last, "Omitted") {
					t.Errorf("shortened within its bound:\n%s", md)
				}
				return
			}
			want := "Omitted to stay within the size bound: " + tt.omitted + " (run orc-state verify, git log, orc-state get for them)."
			if last != want {
				t.Errorf("last line\n%s\nwant\n%s", last, want)
			}
			for _, l := range lines[:len(lines)-1] {
				if !strings.Contains(full, l+"\n") {
					t.Errorf("line %q is not a whole line of the packet", l)
				}
			}
			for _, kept := range []string{"## Session\n", "## Re-entry\n"} {
				if !strings.Contains(tt.omitted, "every section after") && !strings.Contains(md, kept) {
					t.Errorf("%s was dropped:\n%s", kept, md)
				}
			}
		})
	}
}

// smallPacketFull is p rendered without a bound that matters.
func smallPacketFull(p Packet) string { return p.Markdown(1 << 30) }

// TestMarkdownKeepsTheGlanceFromMinGlanceBytes: at every bound from
// minGlanceBytes up, the largest packet opens with the whole glance; below
// it the glance is the first section to go, and says so.
func TestMarkdownKeepsTheGlanceFromMinGlanceBytes(t *testing.T) {
	p := largestPacket("x")
	var lines []string
	for _, l := range glance(p, fmt.Sprintf("- HEAD: %s %s (%s)", shortSHA(p.Head), p.HeadSubject, p.HeadState), dirtyCount(p)) {
		lines = append(lines, safetext.Clip(l, maxLineRunes)) // as every line of the packet
	}
	glance := strings.Join(lines, "\n")
	for _, max := range []int{512, 1024, 2047, minGlanceBytes, 3000, 4096, 10000} {
		md := p.Markdown(max)
		kept := strings.HasPrefix(md, "# orc-state resume packet\n\n## At a glance\n"+glance+"\n\n")
		if max >= minGlanceBytes && !kept {
			t.Errorf("max %d: the glance is not first and whole:\n%s", max, md)
		}
		if max < minGlanceBytes && (kept || !strings.Contains(md, "\nOmitted to stay within the size bound: At a glance, ")) {
			t.Errorf("max %d: the glance was not the first omitted:\n%s", max, md)
		}
	}
}

// TestMarkdownCleansAndCapsLines: a line from data is shown escaped and
// within maxLineRunes; a list keeps its first maxListLines entries and
// says how many more there are.
func TestMarkdownCleansAndCapsLines(t *testing.T) {
	p := smallPacket()
	p.Dirty = nil
	for i := range 12 {
		p.Dirty = append(p.Dirty, fmt.Sprintf("f%d\x1b[31m.go", i))
	}
	p.CrossCheck = []string{strings.Repeat("é", 500)}
	md := p.Markdown(1 << 20)
	for _, want := range []string{"  - f0\\x1b[31m.go\n", "  - f7\\x1b[31m.go\n", "  - (+4 more)\n", "- " + strings.Repeat("é", maxLineRunes-3) + "…\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "f8") || strings.Contains(md, "\x1b") {
		t.Errorf("a ninth dirty file or a raw escape is shown:\n%s", md)
	}
}
