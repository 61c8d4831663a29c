package envfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
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
		got := Refusal(d, tt.path, tt.wd)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("Refusal(%q from %s) = %q, want %q", tt.path, tt.wd, got, tt.want)
		}
	}
	// By identity, not by name: the folder reached under another name.
	if !underSame(filepath.Join(base, "into-orc", "env.sh"), d.Path) || underSame(filepath.Join(base, "home", "env.sh"), d.Path) {
		t.Error("underSame does not compare folders by identity")
	}
}

// The append adds the exports once: a file whose last assignments are ours
// already is left as it is, lines others wrote are kept, a changed value is
// appended after the old one, a file without a final newline gets one
// first, an assignment without export is exported again, and a value with
// a newline is not exported.
func TestAppendAddsOnlyWhatChanged(t *testing.T) {
	ours := "export A='1'\nexport B='it'\\''s'\n"
	vars := [][2]string{{"A", "1"}, {"B", "it's"}}
	tests := []struct {
		name, old string
		vars      [][2]string
		want      string
		wantErr   string
	}{
		{"new file", "", vars, ours, ""},
		{"ours already", ours, vars, ours, ""},
		{"a plain assignment is not an export", "A='1'\n", vars, "A='1'\n" + ours, ""},
		{"others kept", "export PATH='/bin'\n", vars, "export PATH='/bin'\n" + ours, ""},
		{"changed value", ours + "export A='2'\n", vars, ours + "export A='2'\n" + ours, ""},
		{"no final newline", "export X='y'", vars, "export X='y'\n" + ours, ""},
		{"newline in a value", "", [][2]string{{"A", "1"}, {"C", "a\nb"}}, "export A='1'\n", "not exported (a newline in the value): C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "env.sh")
			if tt.old != "" {
				if err := os.WriteFile(path, []byte(tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := writeEnvFile(path, tt.vars)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("file holds %q, want %q", got, tt.want)
			}
		})
	}
}

// The exports point at the state dir and the session, with the worktree's
// root and the working directory as `pwd -P` gives it, and the
// interaction policy only when decisions.json names a known one.
func TestExportsNameTheStateDirAndSession(t *testing.T) {
	repo := t.TempDir()
	files := filepath.Join(repo, ".orc", "s1", "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	d := &state.Dir{Path: filepath.Join(repo, ".orc"), Git: &gitx.Layout{WorktreeRoot: repo}}
	s := &registry.Session{SessionID: "s1"}
	get := func() map[string]string {
		m := map[string]string{}
		for _, v := range orcExports(d, s, repo) {
			m[v[0]] = v[1]
		}
		return m
	}
	real, _ := filepath.EvalSymlinks(repo)
	got := get()
	for name, want := range map[string]string{"ORC_STATE_DIR": d.Path, "ORC_SESSION": "s1", "ORC_REPO_ROOT": repo, "ORC_CONTEXT_CACHED_PWD": real, "ORC_CONTEXT": "repo"} {
		if got[name] != want {
			t.Errorf("%s=%q, want %q", name, got[name], want)
		}
	}
	if _, ok := got["ORC_INTERACTION_POLICY"]; ok {
		t.Error("ORC_INTERACTION_POLICY exported without decisions.json")
	}
	for policy, want := range map[string]string{"guided": "guided", "sometimes": ""} {
		if err := os.WriteFile(filepath.Join(files, "decisions.json"), []byte(`{"schemaVersion":1,"decisions":{"autopilotLevel":{"value":"`+policy+`"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := get()["ORC_INTERACTION_POLICY"]; got != want {
			t.Errorf("policy %q exported as %q, want %q", policy, got, want)
		}
	}
}
