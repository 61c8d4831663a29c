package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/orc-state/orc-state/internal/pastetest"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/registry"
)

func TestSubagentID(t *testing.T) {
	for _, tt := range []struct{ agentType, id, want string }{
		{"general-purpose", "a1b2c3", "general-purpose-a1b2c3"},
		{"", "a1b2c3", "subagent-a1b2c3"},
		{"Explore", "", ""},
		{"my agent; rm -rf /", "x'y", "my-agent--rm--rf---x-y"},
		{"t", strings.Repeat("9", 100), "t-" + strings.Repeat("9", 64)},
		{strings.Repeat("T", 50), "id", strings.Repeat("T", 40) + "-id"},
		{"é", "ü", "subagent--"}, // one dash per character; the type starts with a letter
		{"-", "-rf", "subagent--rf"},
		{"--force", "x", "force-x"},
		{".hidden", "1", "hidden-1"},
	} {
		got := subagentID(tt.agentType, tt.id)
		if got != tt.want {
			t.Errorf("subagentID(%q, %q) = %q, want %q", tt.agentType, tt.id, got, tt.want)
		}
		if p := safetext.NameProblem(got, safetext.MaxName); got != "" && p != "" {
			t.Errorf("subagentID(%q, %q) = %q %s; an agent id is of the safe alphabet", tt.agentType, tt.id, got, p)
		}
	}
}

// TestSubagentContextBound: whatever the names, the context stays within
// the cap, and with ordinary names it is whole (the three commands end
// it).
func TestSubagentContextBound(t *testing.T) {
	s := &registry.Session{SessionID: "feat-par", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, GitBranch: "feat/par"}
	text := clip(subagentContext(s, "general-purpose-a1"), maxSubagentContext)
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
		text := clip(subagentContext(big, agent), maxSubagentContext)
		if n := utf8.RuneCountInString(text); n > maxSubagentContext {
			t.Errorf("the context is %d characters; the cap is %d", n, maxSubagentContext)
		}
		if !strings.Contains(text, "session "+long) {
			t.Errorf("the session is not named whole:\n%s", text)
		}
	}
	if text := subagentContext(s, "it's me"); !strings.Contains(text, `--agent='it'\''s me'`) {
		t.Errorf("an agent id with a quote is not shell-quoted:\n%s", text)
	}
}

// TestSubagentContextPastes: every command of the briefing, whatever the
// agent id the payload gives, runs as shown when pasted (package
// pastetest), and the renewal is among them.
func TestSubagentContextPastes(t *testing.T) {
	s := &registry.Session{SessionID: "feat-par", Command: "flow", Phase: registry.Phase{N: 2}, TotalPhases: 3, GitBranch: "feat/par"}
	for _, p := range [][2]string{{"-", "-rf"}, {"--force", "x"}, {"general-purpose", "a1"}, {"a;b", "$(id)"}} {
		text := subagentContext(s, subagentID(p[0], p[1]))
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
