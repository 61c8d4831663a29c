package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/journal"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func opts() state.Options {
	return state.Options{Verb: "workspace link", Actor: "cli", LockTimeout: time.Second}
}

// workspaceAt is a state dir at root holding session ws of scope scope,
// members m1 (a repository at root/m1) and m2 (no path).
func workspaceAt(t *testing.T, root, scope string) (*state.Dir, *registry.Session) {
	t.Helper()
	statetest.Repo(t, filepath.Join(root, "m1"), "--unborn")
	s := statetest.Entry("ws", t0)
	if scope != "" {
		s.Scope, s.Repos = scope, []string{"m1", "m2"}
		s.PerRepoState = map[string]registry.RepoState{"m1": {RepoPath: filepath.Join(root, "m1")}, "m2": {}}
	}
	d := statetest.Seeding{Clock: func() time.Time { return t0 }}.Seed(t, root, s)
	reg, _, err := d.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return d, reg.Exact("ws")
}

func runOn(d *state.Dir) Run {
	return Run{
		Where: selection.Where{Getenv: func(string) string { return "" }, Dir: func() (*state.Dir, error) { return d, nil },
			Binding: func() (*binding.Binding, error) { return nil, nil }},
		Options: func() (state.Options, error) { return opts(), nil },
		Clock:   func() time.Time { return t0 },
	}
}

// Each member with a path gets the link back to the workspace session in
// its own state dir, each member is reported in order (one without a path
// as such), and the session journals how many were linked.
func TestLinkWritesEachMembersLinkAndReportsInOrder(t *testing.T) {
	root := t.TempDir()
	d, s := workspaceAt(t, root, registry.ScopeWorkspace)
	var got []string
	err := runOn(d).Link(d, s, func(m Member) { got = append(got, m.Name+"="+m.Link) })
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "m1", ".orc", "ws", selection.LinkFile)
	if strings.Join(got, " ") != "m1="+link+" m2=" {
		t.Fatalf("reported %q", got)
	}
	data, err := os.ReadFile(link)
	if err != nil || !strings.Contains(string(data), `"workspaceRoot": "`+root+`"`) || !strings.Contains(string(data), `"scope": "`+selection.LinkScope+`"`) {
		t.Fatalf("link %s: %s (%v)", link, data, err)
	}
	last, _, err := journal.Last(d.File("ws", journal.FileName))
	if err != nil || string(last.Args) != `{"linked":1}` {
		t.Fatalf("journal ends with %s (%v)", last.Args, err)
	}
}

// A session that is no workspace's is refused (exit 2) and one whose
// members have no path is exit 1; neither writes a link.
func TestLinkRefusesWhatHasNothingToLink(t *testing.T) {
	for _, tt := range []struct {
		scope string
		code  int
	}{{"", fault.Usage}, {registry.ScopeWorkspace, fault.NotFound}} {
		root := t.TempDir()
		d, s := workspaceAt(t, root, tt.scope)
		if tt.scope != "" {
			s.PerRepoState["m1"] = registry.RepoState{}
		}
		err := runOn(d).Link(d, s, func(Member) {})
		if fault.Code(err) != tt.code {
			t.Fatalf("scope %q: %v (exit %d), want exit %d", tt.scope, err, fault.Code(err), tt.code)
		}
		if _, err := os.Stat(filepath.Join(root, "m1", ".orc")); err == nil {
			t.Fatalf("scope %q: a member's state dir was written", tt.scope)
		}
	}
}
