package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// TestBindingsNameEachBrokenBinding: an unusable worktrees.json is one
// finding; a binding to a session that does not exist, or to a worktree
// that is gone, is named with the leave command; bindings to another
// session are left out when one session is checked.
func TestBindingsNameEachBrokenBinding(t *testing.T) {
	root := t.TempDir()
	d := &state.Dir{Path: root}
	none := &registry.Registry{}
	if got := Bindings(d, nil, "", none); got != nil {
		t.Errorf("no worktrees.json: %+v, want none", got)
	}
	if err := os.WriteFile(filepath.Join(root, binding.FileName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Bindings(d, nil, "", none); len(got) != 1 || got[0].Code != "worktrees.invalid" {
		t.Errorf("unusable worktrees.json: %+v, want one worktrees.invalid", got)
	}
	gone := filepath.Join(root, "gone")
	f := &binding.File{Schema: 1, Worktrees: []binding.Binding{
		{Path: gone, GitDir: filepath.Join(gone, ".git"), Session: "feat-a", BoundAt: "2030-01-01T00:00:00Z"},
		{Path: gone + "2", GitDir: filepath.Join(gone+"2", ".git"), Session: "feat-b", BoundAt: "2030-01-01T00:00:00Z"},
	}}
	if err := os.WriteFile(filepath.Join(root, binding.FileName), f.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := &registry.Registry{Sessions: []registry.Session{{SessionID: "feat-a", GitBranch: "feat/a"}}}
	tests := []struct {
		id   string
		want []string
	}{
		{"", []string{"worktree.gone", "worktree.no-session"}},
		{"feat-a", []string{"worktree.gone"}},
		{"feat-b", []string{"worktree.no-session"}},
		{"feat-c", nil},
	}
	for _, tt := range tests {
		got := Bindings(d, nil, tt.id, reg)
		if len(got) != len(tt.want) {
			t.Errorf("Bindings(%q) = %+v, want %q", tt.id, got, tt.want)
			continue
		}
		for i := range got {
			if got[i].Code != tt.want[i] || got[i].Next == "" {
				t.Errorf("Bindings(%q)[%d] = %+v, want %s with a next step", tt.id, i, got[i], tt.want[i])
			}
		}
	}
}
