package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
)

// $CLAUDE_ENV_FILE is never appended to inside the state dir or the git
// dirs, however it is named; a file of its own is.
func TestEnvFileRefusal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	common := filepath.Join(base, "main.git") // a linked worktree's common dir
	for _, dir := range []string{filepath.Join(repo, ".orc"), filepath.Join(repo, ".git"), filepath.Join(common, "info"), filepath.Join(base, "home")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	reg := filepath.Join(repo, ".orc", "orc.json")
	if err := os.WriteFile(reg, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"into-orc": filepath.Join(repo, ".orc"), "into-git": filepath.Join(repo, ".git")} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(reg, filepath.Join(base, "home", "hard.sh")); err != nil {
		t.Fatal(err)
	}
	d := &state.Dir{Path: filepath.Join(repo, ".orc"), Git: &gitx.Layout{GitDir: filepath.Join(repo, ".git"), CommonDir: common, WorktreeRoot: repo}}
	tests := []struct {
		path, wd, want string
	}{
		{reg, repo, "inside the state dir"},
		{filepath.Join(repo, ".orc", "new.sh"), repo, "inside the state dir"},
		{filepath.Join(repo, ".orc"), repo, "inside the state dir"},
		{".orc/orc.json", repo, "inside the state dir"},
		{"../repo/.git/config", filepath.Join(base, "home"), "inside the repository's git dir"},
		{filepath.Join(common, "info", "exclude"), repo, "inside the repository's git dir"},
		{filepath.Join(base, "into-orc", "env.sh"), repo, "inside the state dir"},
		{filepath.Join(base, "into-git", "sub", "env.sh"), repo, "inside the repository's git dir"},
		{filepath.Join(repo, "x", "..", ".orc", "env.sh"), repo, "inside the state dir"},
		{filepath.Join(base, "home", "hard.sh"), repo, "has 2 names"},
		{filepath.Join(base, "home", "env.sh"), repo, ""},
		{filepath.Join(repo, ".orcish", "env.sh"), repo, ""},
		{"env.sh", filepath.Join(base, "home"), ""},
	}
	for _, tt := range tests {
		got := envFileRefusal(d, tt.path, tt.wd)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("envFileRefusal(%q from %s) = %q, want %q", tt.path, tt.wd, got, tt.want)
		}
	}
	// By identity, not by name: the folder reached under another name.
	if !underSame(filepath.Join(base, "into-orc", "env.sh"), d.Path) || underSame(filepath.Join(base, "home", "env.sh"), d.Path) {
		t.Error("underSame does not compare folders by identity")
	}
}
