package completion

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A completion offers the state's values as plain shell words, each once,
// from the session the command line chooses; a state it cannot read offers
// nothing.
func TestReadOffersThePlainWordsOfTheChosenSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	write := func(rel, data string) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("orc.json", `{"schema":1,"sessions":[
		{"sessionId":"feat-a","gitBranch":"feat/a","status":"in_progress"},
		{"sessionId":"feat-b","gitBranch":"feat/b","status":"paused"},
		{"sessionId":"odd","gitBranch":"has space","status":"paused"},
		{"sessionId":"feat-a","gitBranch":"feat/a","status":"completed"}]}`)
	write("feat-a/files/slices.json", `{"slices":[{"id":"s1"},{"id":2},{"id":"needs quote'"}]}`)
	write("feat-a/files/decisions.json", `{"decisions":{"zeta":{},"alpha":{}}}`)

	for _, tt := range []struct {
		name              string
		session, branch   string
		ids, branches     []string
		slices, decisions []string
	}{
		{"by --session", "feat-a", "", []string{"feat-a", "feat-b", "odd"}, []string{"feat/a", "feat/b"}, []string{"s1", "2"}, []string{"alpha", "zeta"}},
		{"by --branch", "", "feat/a", []string{"feat-a", "feat-b", "odd"}, []string{"feat/a", "feat/b"}, []string{"s1", "2"}, []string{"alpha", "zeta"}},
		{"another session: its files are missing", "feat-b", "", []string{"feat-a", "feat-b", "odd"}, []string{"feat/a", "feat/b"}, nil, nil},
		{"no session chosen", "", "", []string{"feat-a", "feat-b", "odd"}, []string{"feat/a", "feat/b"}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := Read(dir, tt.session, tt.branch, t.TempDir(), nil)
			for what, pair := range map[string][2][]string{
				"sessionIds": {v.SessionIDs(), tt.ids}, "branches": {v.Branches(), tt.branches},
				"slices": {v.SliceIDs(), tt.slices}, "decisions": {v.DecisionKeys(), tt.decisions},
			} {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					t.Errorf("%s = %q, want %q", what, pair[0], pair[1])
				}
			}
		})
	}
	if v := Read(filepath.Join(dir, "missing"), "", "", t.TempDir(), nil); v.SessionIDs() != nil {
		t.Errorf("a state dir without a registry offers %q", v.SessionIDs())
	}
}
