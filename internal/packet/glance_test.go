package packet

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// glanceOrder is what the first 2,000 characters of the hook's context
// hold, in this order.
var glanceOrder = []string{"- Session: ", "- Next: ", "- Open decisions: ", "- HEAD: ", "- Re-entry: ", "- Your claims: ", "- Worst findings: "}

// largestPacket is a packet of a session at every cap orc-state allows:
// names at the key limit, a digest of MaxDigestBytes full of characters
// JSON escapes, hundreds of dirty files, claims, findings and commits,
// with text that is long, quoted and not ASCII.
func largestPacket(fill string) Packet {
	long := func(n int) string { return strings.Repeat(fill, n/len(fill)+1)[:n] }
	label := long(200)
	jira := "PROJ-" + long(40)
	s := &registry.Session{SessionID: strings.Repeat("s", registry.MaxKeyBytes), GitBranch: strings.Repeat("b", registry.MaxKeyBytes),
		Command: long(60), Phase: registry.Phase{N: registry.MaxPhase}, TotalPhases: registry.MaxPhase, PhaseLabel: &label,
		JiraTicket: &jira, Status: "in_progress", Description: long(registry.MaxDescription), UpdatedAt: "2031-01-01T00:00:00Z"}
	for i := 0; i < 50; i++ {
		s.LinkedPRs = append(s.LinkedPRs, registry.PR{URL: "https://example.com/pr/" + long(100)})
	}
	digest := []string{"- Done: " + long(300), "- Next: " + long(400), "- Open decisions: " + long(300), "- Artifacts: " + long(300), "- Suite: " + long(300)}
	for len(strings.Join(digest, "\n")) < 2048 {
		digest = append(digest, "- "+long(60))
	}
	p := Packet{Session: s, Digest: strings.Join(digest, "\n"), HeadState: "branch", Head: strings.Repeat("a", 40), HeadSubject: long(72),
		Auto: "- At: 2031-01-01T00:00:00Z (trigger: session-end)\n- " + long(3000), Open: strings.Repeat("- "+long(300)+"\n", 10),
		ReentrySlice: long(400), Worktree: long(300), NextArtifact: &ArtifactRef{Path: "/" + long(1000) + ".md"}}
	for i := 0; i < 500; i++ {
		p.Dirty = append(p.Dirty, long(100)+fmt.Sprint(i))
		p.CrossCheck = append(p.CrossCheck, long(300))
		p.Claims = append(p.Claims, long(1024))
		p.Findings = append(p.Findings, verify.Finding{Code: "git.dirty", Message: long(500), Next: long(300)})
		p.Commits = append(p.Commits, "abcdef0 "+long(72))
	}
	for i := 0; i < 50; i++ {
		p.Mine = append(p.Mine, long(1024))
	}
	p.Findings = append(p.Findings, verify.Finding{Code: "journal.anchor", Message: "the journal's tip does not match its anchor", Next: "orc-state doctor"})
	return p
}

// hookAnswer is the shape of the SessionStart hook's answer, whose whole
// printed JSON the host counts.
type hookAnswer struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
		SessionTitle      string `json:"sessionTitle,omitempty"`
	} `json:"hookSpecificOutput"`
}

// TestHostContextWithinHostCap: on the largest session the caps allow,
// the SessionStart answer is within the host's 10,000 characters whole
// (the JSON printed) and its context's first 2,000 characters hold the
// glance in order, the worst finding first.
func TestHostContextWithinHostCap(t *testing.T) {
	for _, fill := range []string{"x", `"\`, "é", "機", "a\"b\\c\td"} {
		p := largestPacket(fill)
		var out hookAnswer
		out.HookSpecificOutput.HookEventName = "SessionStart"
		out.HookSpecificOutput.SessionTitle = safetext.Clip(strings.Repeat(fill, 200), 120)
		out.HookSpecificOutput.AdditionalContext = p.HostContext(func(ctx string) any {
			o := out
			o.HookSpecificOutput.AdditionalContext = ctx
			return o
		})
		printed := encodeJSON(out, "")
		if n := utf8.RuneCount(printed); n > MaxHostContext {
			t.Errorf("fill %q: the hook prints %d characters, over %d", fill, n, MaxHostContext)
		}
		ctx := out.HookSpecificOutput.AdditionalContext
		if n := utf8.RuneCountInString(ctx); n > MaxHostContext {
			t.Errorf("fill %q: additionalContext of %d characters", fill, n)
		}
		head := string([]rune(ctx)[:min(2000, utf8.RuneCountInString(ctx))])
		at := 0
		for _, m := range glanceOrder {
			i := strings.Index(head[at:], m)
			if i < 0 {
				t.Fatalf("fill %q: %q is not within the first 2,000 characters after the previous line:\n%s", fill, m, head)
			}
			at += i + len(m)
		}
		if !strings.Contains(head, "- Worst findings: journal.anchor: ") {
			t.Errorf("fill %q: the worst finding is not first:\n%s", fill, head)
		}
	}
}

// TestGlanceSmallSession: on an ordinary session the glance says each
// fact plainly, and says none when there is nothing.
func TestGlanceSmallSession(t *testing.T) {
	label := "build"
	p := Packet{Session: &registry.Session{SessionID: "main", GitBranch: "main", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, PhaseLabel: &label, Status: "paused"},
		Digest: "- Done: a\n- Next: phase 2 reads files/plan.md\n- Open decisions: none\n- Suite: unknown", HeadState: "branch", Head: strings.Repeat("a", 40), HeadSubject: "base",
		Dirty: []string{"x.go"}, ReentrySlice: "2 (red) b — claimed by you until 2031-01-01T00:30:00Z — 1/3 slices done", Mine: []string{"2 (red) b until 2031-01-01T00:30:00Z"}}
	got := strings.Join(glance(p, "- HEAD: aaaaaaaaaaaa base (branch)", dirtyCount(p)), "\n")
	want := `- Session: main (branch main), flow, phase 2/3 build, paused
- Next: phase 2 reads files/plan.md
- Open decisions: none
- HEAD: aaaaaaaaaaaa base (branch); dirty: 1 file(s)
- Re-entry: 2 (red) b — claimed by you until 2031-01-01T00:30:00Z — 1/3 slices done
- Your claims: 2 (red) b until 2031-01-01T00:30:00Z
- Worst findings: none`
	if got != want {
		t.Errorf("glance:\n%s\nwant:\n%s", got, want)
	}
	if md := p.Markdown(4096); !strings.HasPrefix(md, "# orc-state resume packet\n\n## At a glance\n"+want+"\n\n## Session\n") {
		t.Errorf("the packet does not open with the glance:\n%s", md)
	}
}
