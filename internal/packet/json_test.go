package packet

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/verify"
)

// TestJSONDropsFieldsInOrderAndNamesThem: over its bound, the JSON packet
// drops the same things as the Markdown one, in this order, and names each
// in omitted; within it, it is indented and omits nothing; past every
// step it is the sessionId alone.
func TestJSONDropsFieldsInOrderAndNamesThem(t *testing.T) {
	for _, tt := range []struct {
		name    string
		grow    func(*Packet)
		max     int
		omitted []string
	}{
		{"within its bound: whole and indented", func(*Packet) {}, 4096, nil},
		{"findings past the list cap", func(p *Packet) {
			for range 10 {
				p.Findings = append(p.Findings, verify.Finding{Code: "git.dirty", Message: "m", Next: "n"})
			}
		}, 8192, []string{"findings beyond the first 8 (run orc-state verify)"}},
		{"commits first", func(p *Packet) { p.Commits = strings.Split(many(40, 200), "\n") }, 4096, []string{"commits"}},
		{"then the auto-checkpoint and open decisions", func(p *Packet) { p.Open = many(30, 200) }, 4096,
			[]string{"commits", "autoCheckpoint", "openDecisions"}},
		{"the digest before the session's own text", func(p *Packet) { p.Digest = many(30, 200) }, 2048,
			[]string{"commits", "autoCheckpoint", "openDecisions", "findings", "claims", "dirty", "crossCheck", "nextArtifact", "reentrySlice", "head", "digest"}},
		{"names of hundreds of bytes: the sessionId alone", func(p *Packet) {
			p.Session.SessionID = strings.Repeat("s", 300)
			p.Session.GitBranch = strings.Repeat("b", 300)
		}, 512, []string{"all but the sessionId (raise --max-bytes)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := smallPacket()
			tt.grow(&p)
			out := p.JSON(tt.max)
			if len(out) > tt.max {
				t.Errorf("%d bytes, over %d", len(out), tt.max)
			}
			var doc struct {
				Session  struct{ SessionID string }
				Findings []verify.Finding
				Omitted  []string
			}
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatalf("not JSON (%v): %s", err, out)
			}
			if doc.Session.SessionID != p.Session.SessionID {
				t.Errorf("sessionId %q, want %q", doc.Session.SessionID, p.Session.SessionID)
			}
			if strings.Join(doc.Omitted, ",") != strings.Join(tt.omitted, ",") {
				t.Errorf("omitted %q, want %q", doc.Omitted, tt.omitted)
			}
			if len(doc.Findings) > maxListLines {
				t.Errorf("%d findings, over %d", len(doc.Findings), maxListLines)
			}
			if tt.omitted == nil && !bytes.Contains(out, []byte("\n  \"session\": {")) {
				t.Errorf("a packet within its bound is not indented:\n%s", out)
			}
		})
	}
}
