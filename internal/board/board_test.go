package board

import (
	"slices"
	"testing"
)

// TestDigestLines: the Next line and the open decisions come from the
// digest's bullets ("none" is no decision) and from an older "## Open
// decisions" section; a checkpoint without them has neither.
func TestDigestLines(t *testing.T) {
	for _, c := range []struct {
		name, body, next string
		open             []string
	}{
		{"a digest", "## Resume digest\n- Done: a\n- Next: files/p.md\n- Open decisions: db or not\n- Artifacts: none\n- Suite: unknown\n", "files/p.md", []string{"db or not"}},
		{"none is no decision", "## Resume digest\n- Done: a\n- Next: phase 2\n- Open decisions: None\n", "phase 2", []string{}},
		{"an older section", "## Resume digest\n- Next: x\n- Open decisions: none\n\n## Open decisions\n- q1\n- none\n\n- q2\n", "x", []string{"q1", "q2"}},
		{"no digest", "some text\n", "", []string{}},
		{"the first Next only", "## Resume digest\n- Next: one\n- Next: two\n", "one", []string{}},
	} {
		next, open := digestLines([]byte(c.body))
		if next != c.next || !slices.Equal(open, c.open) {
			t.Errorf("%s: got %q %q, want %q %q", c.name, next, open, c.next, c.open)
		}
	}
}
