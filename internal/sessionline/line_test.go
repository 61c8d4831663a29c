package sessionline

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
	choices := []Choice{
		{Branch: "feat/b006", IsBranch: true}, {Branch: "feat/b007", IsBranch: true},
		{Branch: "feat/b007", IsBranch: true, AnyStatus: true}, {Branch: "feat/b008", IsBranch: true, Named: true},
		{Branch: "no-such", IsBranch: true}, {Branch: "feat-b009", IsBranch: true},
		{Branch: "feat-b009"}, {Branch: "feat-b009", unsure: true},
		{ID: "feat-b010"}, {ID: "feat-b011"}, {ID: "missing"}, {},
	}
	for _, c := range choices {
		whole, wholeCurrent := pickLine(registry.ParseLoose(data), c)
		proven, provenCurrent := pickLine(lineCandidates(dir, data, c), c)
		if c.Branch == "feat/b006" && (whole == nil || whole.GitBranch != "feat/b006") {
			t.Fatalf("feat/b006: the whole parse picked %+v", whole)
		}
		if !reflect.DeepEqual(whole, proven) || wholeCurrent != provenCurrent {
			t.Errorf("%+v: whole parse %+v (%v), proven path %+v (%v)", c, whole, wholeCurrent, proven, provenCurrent)
		}
	}
}

// TestPickLine is line's choice (docs/protocol.md §3, §16): a branch's
// own session only while it is in progress, never another branch's in its
// place; the newest live session, current false, only for
// a branch with no session at all; the statusline (anyStatus) shows the
// own session whatever its status.
func TestPickLine(t *testing.T) {
	entry := func(branch, status, at string) registry.Loose {
		return registry.Loose{SessionID: registry.Sanitize(branch), GitBranch: branch, Status: status, UpdatedAt: at}
	}
	list := []registry.Loose{
		entry("feat/live", "in_progress", "2026-01-05T00:00:00Z"),
		entry("feat/older", "in_progress", "2026-01-01T00:00:00Z"),
		entry("feat/done", "completed", "2026-01-09T00:00:00Z"),
		entry("feat/paused", "paused", "2026-01-08T00:00:00Z"),
		entry("feat/gone", "in_progress", "2026-01-02T00:00:00Z"),
	}
	for _, tt := range []struct {
		name    string
		c       Choice
		want    string // gitBranch shown; "" for nothing
		current bool
	}{
		{"own live session", Choice{Branch: "feat/live", IsBranch: true}, "feat/live", true},
		{"own completed session: nothing, no fallback", Choice{Branch: "feat/done", IsBranch: true}, "", false},
		{"own paused session: nothing, no fallback", Choice{Branch: "feat/paused", IsBranch: true, Named: true}, "", false},
		{"statusline: own completed session", Choice{Branch: "feat/done", IsBranch: true, AnyStatus: true}, "feat/done", true},
		{"statusline: own paused session", Choice{Branch: "feat/paused", IsBranch: true, AnyStatus: true}, "feat/paused", true},
		{"a branch without a session: the newest live one", Choice{Branch: "chore/none", IsBranch: true}, "feat/live", false},
		{"no branch (detached): the newest live one", Choice{}, "feat/live", false},
		{"--session of a live session", Choice{ID: "feat-older"}, "feat/older", true},
		{"--session of a completed session", Choice{ID: "feat-done"}, "", false},
		{"the sessionId of a gone branch", Choice{Branch: "feat-gone"}, "feat/gone", true},
		{"the sessionId of a completed session's gone branch", Choice{Branch: "feat-done", Named: true}, "", false},
		{"a branch whose key is another branch's session", Choice{Branch: "feat-live", IsBranch: true}, "", false},
		{"refs unreadable by hand: not taken for the sessionId", Choice{Branch: "feat-gone", unsure: true}, "", false},
	} {
		got, current := pickLine(list, tt.c)
		gotBranch := ""
		if got != nil {
			gotBranch = got.GitBranch
		}
		if gotBranch != tt.want || current != tt.current {
			t.Errorf("%s: got %q (current %v), want %q (current %v)", tt.name, gotBranch, current, tt.want, tt.current)
		}
	}
}
