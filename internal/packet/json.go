package packet

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// fitJSON caps the packet's lists and cleans its text as Markdown does,
// then drops the same sections until the indented JSON is within max
// bytes.
func fitJSON(p Packet, max int) Packet {
	p.Dirty = capList(p.Dirty, maxListLines, "")
	p.CrossCheck = capList(p.CrossCheck, maxListLines, "")
	p.Claims = capList(p.Claims, maxListLines, "")
	if len(p.Findings) > maxListLines {
		p.Omitted = append(p.Omitted, fmt.Sprintf("findings beyond the first %d (run orc-state verify)", maxListLines))
		p.Findings = p.Findings[:maxListLines]
	}
	for _, l := range []*[]string{&p.Dirty, &p.CrossCheck, &p.Commits, &p.Claims} {
		for i := range *l {
			(*l)[i] = safetext.Clip((*l)[i], maxLineRunes)
		}
	}
	p.ReentrySlice = safetext.Clip(p.ReentrySlice, maxLineRunes)
	steps := []struct {
		name string
		drop func(*Packet)
	}{
		{"commits", func(p *Packet) { p.Commits = []string{} }},
		{"autoCheckpoint", func(p *Packet) { p.Auto = "" }},
		{"openDecisions", func(p *Packet) { p.Open = "" }},
		{"findings", func(p *Packet) { p.Findings = []verify.Finding{} }},
		{"claims", func(p *Packet) { p.Claims = nil }},
		{"dirty", func(p *Packet) { p.Dirty = []string{} }},
		{"crossCheck", func(p *Packet) { p.CrossCheck = []string{} }},
	}
	for _, st := range steps {
		if jsonSize(p) <= max {
			break
		}
		st.drop(&p)
		p.Omitted = append(p.Omitted, st.name)
	}
	if jsonSize(p) <= max {
		return p
	}
	// The digest, the entry's long fields and the git facts can still be
	// over a small bound: they go too, in this order, and as a last resort
	// the entry keeps only its identity.
	entry := *p.Session
	p.Session = &entry
	last := []struct {
		name string
		drop func(*Packet)
	}{
		{"nextArtifact", func(p *Packet) { p.NextArtifact = nil }},
		{"reentrySlice", func(p *Packet) { p.ReentrySlice = "" }},
		{"head", func(p *Packet) { p.Head, p.HeadSubject, p.Worktree = "", "", "" }},
		{"digest", func(p *Packet) { p.Digest = "" }},
		{"session.linkedPRs", func(p *Packet) { p.Session.LinkedPRs = []registry.PR{} }},
		{"session.perRepoState", func(p *Packet) { p.Session.PerRepoState, p.Session.Repos = nil, nil }},
		{"session.gate", func(p *Packet) { p.Session.Gate = nil }},
		{"session.text", func(p *Packet) {
			p.Session.Description, p.Session.PhaseLabel, p.Session.PlanFile, p.Session.JiraTicket = "", nil, nil, nil
		}},
		{"headState", func(p *Packet) { p.HeadState = "" }},
	}
	for _, st := range last {
		if jsonSize(p) <= max {
			break
		}
		st.drop(&p)
		p.Omitted = append(p.Omitted, st.name)
	}
	return p
}

// JSON is the packet as JSON within max bytes: its lists capped and its
// text cleaned as Markdown does, then the same sections dropped (each
// named in omitted) until it fits; indented when it fits so, else
// compact, else (only a session with names of hundreds of bytes gets
// here) its sessionId alone.
func (p Packet) JSON(max int) []byte {
	p = fitJSON(p, max)
	for _, indent := range []string{"  ", ""} {
		if b := encodeJSON(p, indent); len(b) <= max {
			return b
		}
	}
	return encodeJSON(map[string]any{
		"session": map[string]string{"sessionId": p.Session.SessionID},
		"omitted": []string{"all but the sessionId (raise --max-bytes)"},
	}, "")
}

// jsonSize is the size of the packet as printed indented.
func jsonSize(p Packet) int { return len(encodeJSON(p, "  ")) }

// encodeJSON is v as orc-state prints JSON: HTML characters unescaped,
// indented by indent ("" for one line).
func encodeJSON(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	_ = enc.Encode(v)
	return buf.Bytes()
}
