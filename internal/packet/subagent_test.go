package packet

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/pastetest"
	"github.com/orc-state/orc-state/registry"
)

// TestSubagentBriefBound: whatever the names, the brief stays within the
// cap, and with ordinary names it is whole (the release command ends it).
func TestSubagentBriefBound(t *testing.T) {
	s := &registry.Session{SessionID: "feat-par", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, GitBranch: "feat/par"}
	text := SubagentBrief(s, "general-purpose-a1")
	if !strings.HasSuffix(text, "when stopping before it is done.") {
		t.Errorf("an ordinary context was clipped: %s", text)
	}
	for _, cmd := range []string{
		"`orc-state slice claim --session=feat-par --agent=general-purpose-a1`",
		"`orc-state slice renew ID --session=feat-par --agent=general-purpose-a1`",
		"`orc-state slice set ID --status=STATUS --session=feat-par --agent=general-purpose-a1`",
		"`orc-state slice release ID --session=feat-par --agent=general-purpose-a1`",
	} {
		if !strings.Contains(text, cmd) {
			t.Errorf("the context lacks %s:\n%s", cmd, text)
		}
	}
	long := strings.Repeat("k", registry.MaxKeyBytes)
	big := &registry.Session{SessionID: long, Command: "flow", Phase: registry.Phase{N: 1}, TotalPhases: 3, GitBranch: strings.Repeat("b/", 100)}
	for _, agent := range []string{"a", "agent with 'quotes' and spaces", strings.Repeat("é", 300)} {
		text := SubagentBrief(big, agent)
		if n := utf8.RuneCountInString(text); n > MaxSubagentBrief {
			t.Errorf("the context is %d characters; the cap is %d", n, MaxSubagentBrief)
		}
		if !strings.Contains(text, "session "+long) {
			t.Errorf("the session is not named whole:\n%s", text)
		}
	}
	if text := SubagentBrief(s, "it's me"); !strings.Contains(text, `--agent='it'\''s me'`) {
		t.Errorf("an agent id with a quote is not shell-quoted:\n%s", text)
	}
}

// TestSubagentBriefPastes: every command of the brief, whatever the agent
// id (those the hook derives from a payload, and raw ones that look like
// flags or shell syntax), runs as shown when pasted (package pastetest),
// and the renewal is among them.
func TestSubagentBriefPastes(t *testing.T) {
	s := &registry.Session{SessionID: "feat-par", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, GitBranch: "feat/par"}
	for _, agent := range []string{"subagent--rf", "force-x", "general-purpose-a1", "a-b---id-", "-rf", "--force", "a;b $(id)", "it's me"} {
		text := SubagentBrief(s, agent)
		parts := strings.Split(text, "`")
		var cmds []string
		for i := 1; i < len(parts); i += 2 {
			cmds = append(cmds, parts[i])
		}
		if len(cmds) != 4 || !strings.HasPrefix(cmds[1], "orc-state slice renew ID ") {
			t.Fatalf("the briefing's commands are %q", cmds)
		}
		for _, c := range cmds {
			if pr := pastetest.Problem(c); pr != "" {
				t.Errorf("%q %s", c, pr)
			} else if pr := pastetest.Run(c); pr != "" {
				t.Errorf("%q pasted: %s", c, pr)
			}
		}
	}
}
