package packet

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// TestPacketBound holds both forms of the resume packet to their bound
// (docs/protocol.md §11) over packets of every size a repository produces:
// long dirty lists (the boundary falls somewhere different for each
// length of path, so every count from 0 to 200 is tried), long
// cross-checks (every committed slice unreachable after a squash), many
// findings and claims, long names, at the bounds agents use.
func TestPacketBound(t *testing.T) {
	label := "implement"
	jira := "ABC-123"
	for _, max := range []int{512, 1024, 2048, 4096, 10000} {
		for dirty := 0; dirty <= 200; dirty += 7 {
			for _, cross := range []int{0, 1, 8, 40, 120} {
				for _, pathLen := range []int{1, 20, 90, 300} {
					s := &registry.Session{SessionID: "feat-x", GitBranch: "feat/x", Command: "flow", Phase: registry.Phase{N: 3},
						TotalPhases: 9, PhaseLabel: &label, JiraTicket: &jira, Status: "in_progress",
						Description: strings.Repeat("d", pathLen)}
					p := Packet{
						Session: s, HeadState: "branch", Head: strings.Repeat("a", 40), HeadSubject: strings.Repeat("s", pathLen),
						Digest: "## Resume digest\n- Done: x\n- Next: files/plan.md\n- Open decisions: none\n- Artifacts: none\n- Suite: unknown",
						Auto:   "## Auto-checkpoint\n- At: now (trigger: manual)", Open: "## Open decisions\n- none",
						ReentrySlice: "slice-01", NextArtifact: &ArtifactRef{Path: "/x/" + strings.Repeat("p", pathLen) + ".md"},
					}
					for i := 1; i <= dirty; i++ {
						p.Dirty = append(p.Dirty, fmt.Sprintf("%s-dirty-file-%d.txt", strings.Repeat("f", pathLen), i))
					}
					for i := 1; i <= cross; i++ {
						p.CrossCheck = append(p.CrossCheck, fmt.Sprintf("slice slice-%02d: commit %s is not reachable from HEAD", i, strings.Repeat("c", 40)))
						p.Findings = append(p.Findings, verify.Finding{Code: "slice.unreachable-commit", Message: strings.Repeat("m", pathLen), Next: "orc-state verify"})
						p.Claims = append(p.Claims, fmt.Sprintf("slice-%02d by agent-%d until 2031-01-01T00:00:00Z", i, i))
					}
					for i := 0; i < 5; i++ {
						p.Commits = append(p.Commits, "abcdef0 "+strings.Repeat("c", pathLen))
					}
					what := fmt.Sprintf("max %d, %d dirty, %d cross-checks, names of %d bytes", max, dirty, cross, pathLen)
					md, js := p.Markdown(max), p.JSON(max)
					if len(md) > max {
						t.Errorf("%s: Markdown packet of %d bytes", what, len(md))
					}
					if len(js) > max {
						t.Errorf("%s: JSON packet of %d bytes", what, len(js))
					}
					var doc struct {
						Session struct{ SessionID string }
						Omitted []string
					}
					if err := json.Unmarshal(js, &doc); err != nil || doc.Session.SessionID != "feat-x" {
						t.Errorf("%s: JSON packet without its sessionId (%v): %s", what, err, js)
					}
					if full := p.Markdown(1 << 20); len(full) > max {
						// shortened: it says what is missing
						lines := strings.Split(strings.TrimRight(md, "\n"), "\n")
						if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Omitted to stay within the size bound: ") {
							t.Errorf("%s: Markdown packet shortened without an Omitted line: %q", what, last)
						}
						if len(doc.Omitted) == 0 {
							t.Errorf("%s: JSON packet shortened without omitted", what)
						}
					}
				}
			}
		}
	}
}
