package packet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// The Next: artifact is a name inside the session's files (or the work
// tree); a name that climbs out is not shown, but ".." inside a name is
// only a name.
func TestNextArtifactStaysInside(t *testing.T) {
	root := t.TempDir()
	d, err := state.Resolve(filepath.Join(root, ".orc"), root, environ.OS())
	if err != nil {
		t.Fatal(err)
	}
	s := &registry.Session{SessionID: "main"}
	if err := os.MkdirAll(d.FilesDir("main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.FilesDir("main"), "a..b.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line   string
		want   string // base name, "" for none
		exists bool
	}{
		{"- Next: files/a..b.md", "a..b.md", true},
		{"- Next: plan.md", "plan.md", false},
		{"- Next: ../../etc/passwd.md", "", false},
		{"- Next: files/../../x.md", "", false},
		{"- Next: /etc/x.md", "", false},
	} {
		got := nextArtifact(d, s, "## Resume digest\n"+c.line+"\n")
		switch {
		case c.want == "" && got != nil:
			t.Errorf("%q: %+v, want none", c.line, got)
		case c.want != "" && (got == nil || filepath.Base(got.Path) != c.want || got.Exists != c.exists):
			t.Errorf("%q: %+v, want %s (exists %v)", c.line, got, c.want, c.exists)
		}
	}
}
