package sessioninit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

func str(s string) *string { return &s }
func num(n int) *int       { return &n }

// run is the Run of init on a fresh state dir outside any repository,
// with $ORC_SESSION env (or none) and --session flag (or none).
func run(t *testing.T, d *state.Dir, env, flag string) Run {
	t.Helper()
	return Run{
		Where: selection.Where{
			Flag: flag,
			Getenv: func(key string) string {
				if key == "ORC_SESSION" {
					return env
				}
				return ""
			},
			Dir:     func() (*state.Dir, error) { return d, nil },
			Binding: func() (*binding.Binding, error) { return nil, nil },
		},
		Stamp: func() string { return d.Now() },
		Update: func(fn func(tx *state.Tx) error) error {
			return d.Update(context.Background(), state.Options{Verb: "init", Actor: "cli", LockTimeout: time.Second}, fn)
		},
	}
}

func newDir(t *testing.T) *state.Dir {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &state.Dir{Path: filepath.Join(t.TempDir(), ".orc"), Clock: func() time.Time { return t0 }}
}

// files is every file under the state dir with its content, to show that
// a refusal wrote nothing.
func files(t *testing.T, d *state.Dir) string {
	t.Helper()
	var b strings.Builder
	_ = filepath.WalkDir(d.Path, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			data, _ := os.ReadFile(path)
			b.WriteString(path + "\n" + string(data) + "\n")
		}
		return nil
	})
	return b.String()
}

// A value no session could keep is refused before any lock, as a usage
// error naming the flag.
func TestCheckRefusesWhatNoSessionKeeps(t *testing.T) {
	for _, tt := range []struct {
		f    Fields
		says string
	}{
		{Fields{TotalPhases: num(0)}, "--total-phases 0 is below 1"},
		{Fields{Command: str("")}, "--command is empty"},
		{Fields{Command: str("a\nb")}, "--command"},
		{Fields{Description: str(strings.Repeat("x", registry.MaxDescription+1))}, "the limit is"},
		{Fields{Jira: str("abc")}, "is not a Jira key"},
		{Fields{Repos: []string{""}, Scope: str(registry.ScopeWorkspace)}, "--repos has an empty name"},
		{Fields{Repos: []string{"api"}}, "--repos needs --scope workspace"},
	} {
		err := tt.f.Check()
		if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Check(%+v) = %v, want a usage error saying %q", tt.f, err, tt.says)
		}
	}
	if err := (Fields{Command: str("flow"), TotalPhases: num(2), Jira: str("ABC-1"), Scope: str(registry.ScopeWorkspace), Repos: []string{"api"}}).Check(); err != nil {
		t.Errorf("a whole set of flags is refused: %v", err)
	}
}

// Apply sets the fields passed and leaves every other one as it was.
func TestApplySetsOnlyWhatWasPassed(t *testing.T) {
	s := New("feat", "feat", "2026-03-01T12:00:00Z")
	s.Command, s.TotalPhases, s.Description = "flow", 3, "kept"
	Fields{TotalPhases: num(5), PlanFile: str("plan.md")}.Apply(&s)
	if s.Command != "flow" || s.TotalPhases != 5 || s.Description != "kept" || registry.Deref(s.PlanFile) != "plan.md" || s.JiraTicket != nil {
		t.Errorf("after Apply: %+v", s)
	}
	if got := (Fields{Command: str("flow")}).MissingForNew(); got != "--total-phases" {
		t.Errorf("MissingForNew = %q", got)
	}
}

// init registers a branch's session once, then updates only the flags
// passed on it; a new session needs --command and --total-phases, and
// --session names one to update, never one to register.
func TestInitRegistersOnceThenUpdates(t *testing.T) {
	d := newDir(t)
	res, err := run(t, d, "", "").Init("feat", Fields{Command: str("flow"), TotalPhases: num(3)})
	if err != nil || !res.Created || res.ID != "feat" {
		t.Fatalf("first init: %+v, %v", res, err)
	}
	res, err = run(t, d, "", "").Init("feat", Fields{Description: str("the work")})
	if err != nil || res.Created || res.ID != "feat" || res.Status != "in_progress" {
		t.Fatalf("second init: %+v, %v", res, err)
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if s := reg.Find("feat"); s == nil || s.Command != "flow" || s.TotalPhases != 3 || s.Description != "the work" || len(reg.Sessions) != 1 {
		t.Fatalf("registry after two inits: %+v", reg.Sessions)
	}
	before := files(t, d)
	for _, tt := range []struct {
		r      Run
		branch string
		f      Fields
		says   string
	}{
		{run(t, d, "", ""), "other", Fields{Command: str("flow")}, "registering one needs --total-phases"},
		{run(t, d, "", "ghost"), "", Fields{Command: str("flow"), TotalPhases: num(1)}, "no session \"ghost\" to update"},
		{run(t, d, "", ""), "feat", Fields{TotalPhases: num(0)}, "below 1"},
	} {
		_, err := tt.r.Init(tt.branch, tt.f)
		if fault.Code(err) != fault.Usage || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("init %q %+v: %v, want a usage error saying %q", tt.branch, tt.f, err, tt.says)
		}
		if files(t, d) != before {
			t.Errorf("init %q %+v wrote after refusing", tt.branch, tt.f)
		}
	}
}
