package phase

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// gate show lists the verdicts, then the retries by phase in numeric
// order, then the budget: the default without a decision, else the
// decided one; an empty reviewer or note shows as "-".
func TestShowListsVerdictsRetriesByPhaseAndTheBudget(t *testing.T) {
	d := &state.Dir{Path: filepath.Join(t.TempDir(), ".orc")}
	s := &registry.Session{SessionID: "a"}
	shown, err := Show(d, s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shown.Lines(), []string{fmt.Sprintf("budget\t%d", DefaultMaxRetries)}; !reflect.DeepEqual(got, want) {
		t.Errorf("no gate: %q, want %q", got, want)
	}
	s.Gate = &registry.Gate{
		Verdicts: []registry.Verdict{{Phase: 1, Verdict: "changes_requested", At: "2026-03-01T12:00:00Z"}, {Phase: 1, Verdict: "approved", Reviewer: "r", At: "2026-03-01T13:00:00Z", Note: "ok"}},
		Retries:  map[string]int{"10": 1, "2": 2},
	}
	if err := os.MkdirAll(d.FilesDir("a"), 0o755); err != nil {
		t.Fatal(err)
	}
	dec := `{"schema":1,"decisions":{"maxRetriesPerPhase":{"value":"5","provenance":"flag","settledAt":"2026-03-01T12:00:00Z"}}}`
	if err := os.WriteFile(d.File("a", state.DecisionsFile), []byte(dec), 0o644); err != nil {
		t.Fatal(err)
	}
	if shown, err = Show(d, s); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1\tchanges_requested\t-\t2026-03-01T12:00:00Z\t-",
		"1\tapproved\tr\t2026-03-01T13:00:00Z\tok",
		"retries\t2\t2",
		"retries\t10\t1",
		"budget\t5",
	}
	if got := shown.Lines(); !reflect.DeepEqual(got, want) {
		t.Errorf("Lines =\n%q\nwant\n%q", got, want)
	}
}
