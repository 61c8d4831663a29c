package resume

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
	"github.com/orc-state/orc-state/registry"
)

// TestTitleIsOursOnlyWithoutAUsersTitle: the hook sets a title on
// startup, resume and fork when the session has none or one orc-state
// set, never on compact or clear, never over the user's own title or one
// of a shape it does not know.
func TestTitleIsOursOnlyWithoutAUsersTitle(t *testing.T) {
	tests := []struct {
		source string
		title  any
		want   bool
	}{
		{"startup", nil, true},
		{"resume", "", true},
		{"fork", "orc: flow feat/x [2]", true},
		{"startup", "my own name", false},
		{"startup", 42.0, false},
		{"compact", nil, false},
		{"clear", "", false},
	}
	for _, tt := range tests {
		if got := titleIsOurs(tt.source, tt.title); got != tt.want {
			t.Errorf("titleIsOurs(%q, %#v) = %v, want %v", tt.source, tt.title, got, tt.want)
		}
	}
}

// seeded is a state dir outside any repository holding the entries,
// written by one transaction, and a run in its folder.
func seeded(t *testing.T, entries ...registry.Session) (*state.Dir, selection.Run) {
	t.Helper()
	root := t.TempDir()
	d := statetest.Seed(t, root, entries...)
	return d, selection.Run{DirFlag: d.Path, Wd: root, Environ: environ.List{"HOME=" + root}, Clock: time.Now}
}

func entry(id, status string) registry.Session {
	phase, _ := registry.ParsePhase("2")
	now := registry.Stamp(time.Now())
	return registry.Session{SessionID: id, Branch: id, GitBranch: id, Command: "flow", Phase: phase,
		TotalPhases: 3, Status: status, LinkedPRs: []registry.PR{}, StartedAt: now, UpdatedAt: now}
}

// TestSessionStartAnswersOnlyForALiveSession: a live session gets the
// banner on startup (with the title) and the packet on compact (without
// one), and its exports in $CLAUDE_ENV_FILE; a finished or unknown session
// gets no answer at all; an env file inside the state dir is a problem,
// not written, and the answer still comes.
func TestSessionStartAnswersOnlyForALiveSession(t *testing.T) {
	d, run := seeded(t, entry("run", "in_progress"), entry("over", "completed"))
	envFile := filepath.Join(run.Wd, "env.sh")
	tests := []struct {
		flag, source, envFile string
		context, title        string // what the answer's context starts with and its title; "" context: no answer
		problem               string
	}{
		{"run", "startup", envFile, "orc-state: session run (flow, phase 2/3", "orc: flow run [2]", ""},
		{"run", "compact", "", "orc-state: the workflow session run (flow) is in_progress", "", ""},
		{"over", "startup", envFile, "", "", ""},
		{"gone", "startup", envFile, "", "", ""},
		{"run", "clear", filepath.Join(d.Path, "env.sh"), "orc-state: session run", "", "inside the state dir"},
	}
	for _, tt := range tests {
		os.Remove(envFile)
		r := run
		r.Flag = tt.flag
		if tt.envFile != "" {
			r.Environ = append(environ.List{"CLAUDE_ENV_FILE=" + tt.envFile}, run.Environ...)
		}
		a := SessionStart(Start{Run: r, Source: tt.source, Now: time.Now()})
		name := tt.flag + "/" + tt.source
		if len(a.Problems) != 0 != (tt.problem != "") || tt.problem != "" && !strings.Contains(a.Problems[0].Error(), tt.problem) {
			t.Errorf("%s: problems %v, want %q", name, a.Problems, tt.problem)
		}
		if tt.context == "" {
			if a.JSON != nil {
				t.Errorf("%s: answered %s, want nothing", name, a.JSON)
			}
			continue
		}
		var out HookOutput
		if err := json.Unmarshal(a.JSON, &out); err != nil || !strings.HasSuffix(string(a.JSON), "}\n") {
			t.Fatalf("%s: answer %q is not one line of JSON: %v", name, a.JSON, err)
		}
		h := out.HookSpecificOutput
		if h.HookEventName != "SessionStart" || !strings.HasPrefix(h.AdditionalContext, tt.context) || h.SessionTitle != tt.title {
			t.Errorf("%s: answer %+v, want context %q... and title %q", name, h, tt.context, tt.title)
		}
		exports, _ := os.ReadFile(envFile)
		if want := tt.envFile == envFile; want != strings.Contains(string(exports), "export ORC_SESSION='run'\n") {
			t.Errorf("%s: env file holds %q, want the exports: %v", name, exports, want)
		}
	}
	if _, err := os.Stat(filepath.Join(d.Path, "env.sh")); err == nil {
		t.Error("the exports were written inside the state dir")
	}
}

// TestShowFindsTheSessionOrListsThoseInProgress: resume shows the named
// session's packet; naming none that exists is exit 1 with the sessions
// in progress to list.
func TestShowFindsTheSessionOrListsThoseInProgress(t *testing.T) {
	_, run := seeded(t, entry("run", "in_progress"), entry("over", "completed"))
	shown, err := Show(run, "over", time.Now())
	if err != nil || shown.Packet.Session == nil || shown.Packet.Session.SessionID != "over" {
		t.Fatalf("Show(over): %+v, %v", shown.Packet.Session, err)
	}
	shown, err = Show(run, "nope", time.Now())
	if fault.Code(err) != 1 || len(shown.Live) != 1 || shown.Live[0].SessionID != "run" {
		t.Errorf("Show(nope): exit %d (%v), listed %v; want exit 1 listing run", fault.Code(err), err, shown.Live)
	}
}
