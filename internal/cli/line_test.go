package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// line answers the same whether it reads orc.json whole and leniently (a
// small file, or no proof) or through the proof and the chosen entries (a
// large proven file): every choice, on a registry above looseWhole.
func TestLineCandidatesAgreeWithTheWholeParse(t *testing.T) {
	reg := registry.Registry{Schema: registry.Schema}
	for i := range 400 {
		branch := fmt.Sprintf("feat/b%03d", i)
		status := []string{"in_progress", "paused", "completed"}[i%3]
		reg.Sessions = append(reg.Sessions, registry.Session{
			SessionID: registry.Sanitize(branch), Branch: registry.Sanitize(branch), GitBranch: branch,
			Command: "flow", Status: status, Phase: registry.Phase{N: 1 + i%3}, TotalPhases: 3,
			LinkedPRs: []registry.PR{}, StartedAt: "2026-01-02T03:04:05Z",
			UpdatedAt: fmt.Sprintf("2026-01-%02dT03:04:05Z", 1+i%28),
		})
	}
	data, err := reg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < looseWhole {
		t.Fatalf("the registry is %d bytes, below looseWhole (%d): the proven path is not taken", len(data), looseWhole)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, state.ProofFile), registry.Proof(data), 0o644); err != nil {
		t.Fatal(err)
	}
	choices := []lineChoice{
		{branch: "feat/b007", isBranch: true}, {branch: "feat/b008", isBranch: true, named: true},
		{branch: "no-such", isBranch: true}, {branch: "feat-b009", isBranch: true},
		{id: "feat-b010"}, {id: "missing"}, {},
	}
	for _, c := range choices {
		whole, wholeCurrent := pickLine(registry.ParseLoose(data), c)
		proven, provenCurrent := pickLine(lineCandidates(dir, data, c), c)
		if c.branch == "feat/b007" && (whole == nil || whole.GitBranch != "feat/b007") {
			t.Fatalf("feat/b007: the whole parse picked %+v", whole)
		}
		if !reflect.DeepEqual(whole, proven) || wholeCurrent != provenCurrent {
			t.Errorf("%+v: whole parse %+v (%v), proven path %+v (%v)", c, whole, wholeCurrent, proven, provenCurrent)
		}
	}
}
