package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/registry"
)

// part is one section of the rendered packet; parts with a higher drop
// rank are shortened or omitted first when the packet is over its bound.
type part struct {
	title string
	lines []string
	drop  int // 0: never dropped
}

// renderPacket renders the packet as Markdown within max bytes. Over the
// bound, list sections are shortened, then whole sections are omitted
// (named in an "Omitted" line with the command that shows them); lines are
// never cut in the middle.
func renderPacket(p Packet, max int) string {
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
	gitLines := []string{fmt.Sprintf("- HEAD: %s %s (%s)", short(p.Head), p.HeadSubject, p.HeadState)}
	if p.Worktree != "" {
		gitLines = append(gitLines, "- Worktree: "+p.Worktree)
	}
	gitLines = append(gitLines, fmt.Sprintf("- Dirty: %d file(s)", len(p.Dirty)))
	for _, f := range p.Dirty {
		gitLines = append(gitLines, "  - "+oneLine(f))
	}
	commits := []string{}
	for _, c := range p.Commits {
		commits = append(commits, "- "+oneLine(c))
	}
	reentry := []string{}
	if p.ReentrySlice != "" {
		reentry = append(reentry, "- Slice: "+p.ReentrySlice)
	}
	if p.NextArtifact != nil {
		state := "exists"
		if !p.NextArtifact.Exists {
			state = "missing"
		}
		reentry = append(reentry, fmt.Sprintf("- Next artifact: %s (%s)", p.NextArtifact.Path, state))
	}
	findings := []string{}
	for _, f := range p.Findings {
		findings = append(findings, fmt.Sprintf("- %s: %s (next: %s)", f.Code, f.Message, f.Next))
	}
	if len(findings) == 0 {
		findings = append(findings, "- none")
	}
	cross := []string{}
	for _, c := range p.CrossCheck {
		cross = append(cross, "- "+c)
	}
	parts := []part{
		{"## Session", entry, 0},
		{"## Resume digest", lines(p.Digest), 0},
		{"## Cross-check", cross, 0},
		{"## Re-entry", reentry, 0},
		{"## Findings (orc-state verify)", findings, 3},
		{"## Git", gitLines, 4},
		{"## Open decisions", lines(p.Open), 2},
		{"## Auto-checkpoint", lines(p.Auto), 5},
		{"## Last commits", commits, 6},
	}
	out := assemble(parts, nil)
	for rank := 6; len(out) > max && rank > 0; rank-- {
		for i := range parts {
			if parts[i].drop == rank && len(parts[i].lines) > 0 {
				parts[i].lines = nil
			}
		}
		out = assemble(parts, omittedNames(parts))
	}
	return out
}

func omittedNames(parts []part) []string {
	var names []string
	for _, p := range parts {
		if p.drop > 0 && p.lines == nil {
			names = append(names, strings.TrimPrefix(p.title, "## "))
		}
	}
	return names
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
		fmt.Fprintf(&b, "\nOmitted to stay within the size bound: %s (run orc-state verify, git log, orc-state get for them).\n", strings.Join(omitted, ", "))
	}
	return b.String()
}

func lines(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// fitJSON drops the same sections as renderPacket until the JSON is within
// max bytes.
func fitJSON(p Packet, max int) Packet {
	steps := []struct {
		name string
		drop func(*Packet)
	}{
		{"commits", func(p *Packet) { p.Commits = []string{} }},
		{"autoCheckpoint", func(p *Packet) { p.Auto = "" }},
		{"dirty", func(p *Packet) { p.Dirty = p.Dirty[:0] }},
		{"findings", func(p *Packet) { p.Findings = p.Findings[:0] }},
		{"openDecisions", func(p *Packet) { p.Open = "" }},
	}
	for _, st := range steps {
		if b, _ := json.Marshal(p); len(b) <= max {
			break
		}
		st.drop(&p)
		p.Omitted = append(p.Omitted, st.name)
	}
	return p
}
