package install

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
)

// install says there is nothing to do, what a dry run would write and
// replace, or what it wrote and replaced; another tool's command is
// escaped.
func TestToldSaysWhatThePlanDoes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	p := &Plan{Path: path, Out: []byte("{}\n"), Foreign: "other\x1b", Backup: path + ".bak"}
	for _, c := range []struct {
		dry  bool
		want string
	}{
		{true, "would write " + path + ":\n{}\nwould replace the statusLine command other\\x1b, keeping the old file as " + path + ".bak\n"},
		{false, "wrote statusLine to " + path + "\nreplaced the statusLine command other\\x1b; the old file is kept as " + path + ".bak\n"},
	} {
		if got := p.Told(c.dry); got != c.want {
			t.Errorf("Told(%v) = %q, want %q", c.dry, got, c.want)
		}
	}
	same := &Plan{Path: path, Same: true}
	if got := same.Told(true); got != path+" already has orc-state's statusLine; nothing to do\n" {
		t.Errorf("Told(same) = %q", got)
	}
	plan, err := Prepare(path, "orc-state statusline", false, time.Now())
	if err != nil || plan.Same || plan.Foreign != "" || !strings.HasPrefix(plan.Told(false), "wrote statusLine to ") {
		t.Errorf("a new file: %+v, %v", plan, err)
	}
}

// The user's settings need a home; a repository's need a repository.
func TestSettingsPathsRefuseWithoutAPlace(t *testing.T) {
	if _, err := UserSettings(""); fault.Code(err) != fault.Usage {
		t.Errorf("no home: %v", err)
	}
	if got, err := UserSettings("/h"); err != nil || got != filepath.Join("/h", ".claude", "settings.json") {
		t.Errorf("UserSettings(/h) = %q, %v", got, err)
	}
	if _, err := ProjectSettings(nil); fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), "needs a git repository") {
		t.Errorf("no repository: %v", err)
	}
}
