package selection

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

var opts = state.Options{Verb: "test", Actor: "cli", LockTimeout: time.Second}

func entry(id, branch, status string) registry.Session {
	phase, _ := registry.ParsePhase("1")
	now := registry.Stamp(time.Now())
	return registry.Session{SessionID: id, Branch: id, GitBranch: branch, Command: "flow", Phase: phase,
		TotalPhases: 3, Status: status, LinkedPRs: []registry.PR{}, StartedAt: now, UpdatedAt: now}
}

// seeded is a state dir outside any repository holding the entries, each
// with its mirror, written by one transaction.
func seeded(t *testing.T, root string, entries ...registry.Session) *state.Dir {
	t.Helper()
	return statetest.Seed(t, root, entries...)
}

// at is the Where of a run outside any repository on d, with --session
// flag and nothing else set.
func at(d *state.Dir, flag string) Where {
	return Where{
		Flag:    flag,
		Getenv:  func(string) string { return "" },
		Dir:     func() (*state.Dir, error) { return d, nil },
		Binding: func() (*binding.Binding, error) { return nil, nil },
	}
}

// snapshot is every file under root with its content.
func snapshot(t *testing.T, root string) string { return statetest.Files(t, root) }

// TestChangeIsSavedOnceOrWritesNothing: a change to the
// chosen entry is saved (validated, mirrored, journaled); a function that
// changes nothing, one that fails, arguments that hold a credential, an
// entry left invalid and a session that is not there write nothing, each
// with its exit code.
func TestChangeIsSavedOnceOrWritesNothing(t *testing.T) {
	token := "gh" + "p_" + strings.Repeat("Gu4rd", 8) // assembled: no literal credential in the file
	tests := []struct {
		name string
		flag string
		args any
		fn   func(s *registry.Session) error
		code int    // 0: the change is saved
		msg  string // in the error
	}{
		{name: "a change is saved", flag: "feat-a", args: map[string]string{"status": "paused"},
			fn: func(s *registry.Session) error { s.Status = "paused"; return nil }},
		{name: "no change writes nothing", flag: "feat-a", fn: func(*registry.Session) error { return nil }, code: -1},
		{name: "a refusal writes nothing", flag: "feat-a", code: fault.Usage, msg: "refused",
			fn: func(s *registry.Session) error { s.Status = "paused"; return fault.Usagef("refused") }},
		{name: "a credential in the arguments writes nothing", flag: "feat-a", args: map[string]string{"note": token},
			fn: func(s *registry.Session) error { s.Status = "paused"; return nil }, code: fault.Usage, msg: `argument "note" line 1 looks like a credential`},
		{name: "an entry left invalid writes nothing", flag: "feat-a", code: fault.Usage, msg: "status",
			fn: func(s *registry.Session) error { s.Status = "sleeping"; return nil }},
		{name: "a session not there is not found, with the near names", flag: "feat-b", code: fault.NotFound, msg: "did you mean feat-a?",
			fn: func(*registry.Session) error { t.Error("fn ran without a session"); return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			d := seeded(t, root, entry("feat-a", "feat/a", "in_progress"))
			before := snapshot(t, root)
			c, err := at(d, tt.flag).Choose("")
			if err != nil {
				t.Fatal(err)
			}
			err = at(d, tt.flag).On(d, c, opts, Change(tt.args, func(_ *state.Tx, s *registry.Session) error { return tt.fn(s) }))
			if tt.code > 0 {
				code, msg, hint := fault.Explain(err)
				if code != tt.code || !strings.Contains(msg+" "+hint, tt.msg) {
					t.Fatalf("exit %d, %q (%q); want exit %d with %q", code, msg, hint, tt.code, tt.msg)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, root)
			if tt.code != 0 {
				if after != before {
					t.Fatalf("files changed:\n%s\nwant as before:\n%s", after, before)
				}
				return
			}
			reg, _, err := d.ReadRegistry()
			if err != nil || reg.Exact("feat-a").Status != "paused" {
				t.Fatalf("registry %+v, %v; want feat-a paused", reg, err)
			}
			mirror, _ := d.ReadFile("feat-a", state.CheckpointFile)
			journal, _ := d.ReadFile("feat-a", "journal.jsonl")
			if !strings.Contains(string(mirror), "status: paused") || strings.Count(string(journal), "\n") != 2 || !strings.Contains(string(journal), `"paused"`) {
				t.Fatalf("mirror %q, journal %q; want the mirror paused and one journal line more, with the args", mirror, journal)
			}
		})
	}
}

// TestLiveIsOnlyAnInProgressOrPausedSession: a hook acts on the selected
// session only while it is in progress or paused; none, or one that is
// done, is nothing to do (no error); a name that can be no session is
// still refused.
func TestLiveIsOnlyAnInProgressOrPausedSession(t *testing.T) {
	d := seeded(t, t.TempDir(), entry("run", "run", "in_progress"), entry("wait", "wait", "paused"), entry("over", "over", "completed"))
	tests := []struct {
		flag, want string // want: the sessionId, "" for none, "exit N" for an error
	}{
		{"run", "run"}, {"wait", "wait"}, {"over", ""}, {"gone", ""}, {"..", "exit 2"},
	}
	for _, tt := range tests {
		_, _, s, err := at(d, tt.flag).Live()
		got := ""
		switch {
		case err != nil:
			got = "exit " + string(rune('0'+fault.Code(err)))
		case s != nil:
			got = s.SessionID
		}
		if got != tt.want {
			t.Errorf("Live with --session=%s: %q (%v), want %q", tt.flag, got, err, tt.want)
		}
	}
}

// TestPickFallsBackToALinkedWorkspaceThenToThePicker: resume shows the
// named session; else the workspace session a link in this state dir
// names for the key; else the sessions in progress for a picker (with
// the linked workspace's), exit 1 naming what it looked for.
func TestPickFallsBackToALinkedWorkspaceThenToThePicker(t *testing.T) {
	root := t.TempDir()
	d := seeded(t, filepath.Join(root, "member"), entry("here", "here", "in_progress"), entry("over", "over", "completed"))
	ws := seeded(t, filepath.Join(root, "ws"), entry("ws-main", "ws/main", "in_progress"))
	link, _ := json.Marshal(Link{Scope: LinkScope, WorkspaceRoot: filepath.Dir(ws.Path), WorkspaceName: "ws", SessionID: "ws-main", Branch: "feat/m"})
	if err := os.MkdirAll(filepath.Join(d.Path, "ws-main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, "ws-main", LinkFile), link, 0o644); err != nil {
		t.Fatal(err)
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want string // the sessionId and where it lives, or the error and the sessions listed
	}{
		{"here", "here in member"},
		{"over", "over in member"},
		{"feat/m", "ws-main in ws"},
		{"ws-main", "ws-main in ws"},
		{"nope", `exit 1: no session for "nope"; 2 in progress listed on stdout: here ws-main`},
		{"", "exit 1: no session for this branch; 2 in progress listed on stdout: here ws-main"},
	}
	for _, tt := range tests {
		p, err := at(d, "").Pick(d, reg, tt.key)
		var got string
		if err != nil {
			_, msg, _ := fault.Explain(err)
			got = "exit " + string(rune('0'+fault.Code(err))) + ": " + msg + ":"
			for _, s := range p.Live {
				got += " " + s.SessionID
			}
		} else {
			where := d
			if p.Dir != nil {
				where = p.Dir
			}
			got = p.Session.SessionID + " in " + filepath.Base(filepath.Dir(where.Path))
		}
		if got != tt.want {
			t.Errorf("Pick(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
	if !IsLinkFolder(d, "ws-main") || IsLinkFolder(d, "here") {
		t.Errorf("IsLinkFolder: ws-main %v, here %v; want only ws-main", IsLinkFolder(d, "ws-main"), IsLinkFolder(d, "here"))
	}
}
