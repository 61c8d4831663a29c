package worktrees

import (
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/safetext"
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
		got := SubagentID(tt.agentType, tt.id)
		if got != tt.want {
			t.Errorf("SubagentID(%q, %q) = %q, want %q", tt.agentType, tt.id, got, tt.want)
		}
		if p := safetext.NameProblem(got, safetext.MaxName); got != "" && p != "" {
			t.Errorf("SubagentID(%q, %q) = %q %s; an agent id is of the safe alphabet", tt.agentType, tt.id, got, p)
		}
	}
}
