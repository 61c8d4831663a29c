package refsync_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/refsync"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/statetest"
)

// A silent remote is bounded by the timeout, and the verb says what it
// waits for: a fetch from a transport that never answers, and a
// push whose remote holds the connection in its post-receive hook (after
// taking the refs, which the next sync finds: up to date, its base set).
func TestSilentRemote(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil || !realProcesses {
		t.Skip("needs git and POSIX hooks")
	}
	simEnv(t)
	tmpl, err := template("sha1")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := statetest.CopyTree(tmpl, root); err != nil {
		t.Fatal(err)
	}
	w := &world{root: root, bare: filepath.Join(root, "remote.git")}
	m := &machine{name: "m0", dir: filepath.Join(root, "m0")}
	if code, _, stderr := w.orc(m, "", "init", "--command", "flow", "--total-phases", "3", "--branch", "s1"); code != 0 {
		t.Fatal(stderr)
	}
	// syncer resolves the state dir with the environment as it is now
	// (a subtest's variables included), as a new process would.
	syncer := func(remote string, timeout time.Duration) (*refsync.Syncer, *[]string) {
		d, err := state.Resolve("", m.dir, environ.OS())
		if err != nil {
			t.Fatal(err)
		}
		s, err := refsync.New(d, remote, state.Options{Verb: "sync push", Actor: "m0", LockTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		var told []string
		s.Timeout, s.NoticeAfter = timeout, 200*time.Millisecond
		s.Notify = func(msg string) { told = append(told, msg) }
		return s, &told
	}

	t.Run("fetch", func(t *testing.T) {
		t.Setenv("GIT_SSH_COMMAND", "sleep 60; true")
		s, told := syncer("ssh://example.invalid/r.git", 1500*time.Millisecond)
		start := time.Now()
		_, _, err := s.Push([]string{"s1"})
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("a silent fetch held the push for %v", took)
		}
		if err == nil || !strings.Contains(err.Error(), "no answer from ssh://example.invalid/r.git within 1.5s (git fetch was stopped)") {
			t.Fatalf("err = %v", err)
		}
		if _, _, hint := fault.Explain(err); !strings.Contains(hint, "git ls-remote ssh://example.invalid/r.git") {
			t.Errorf("hint = %q", hint)
		}
		if len(*told) != 1 || (*told)[0] != "waiting for ssh://example.invalid/r.git to answer git fetch (gives up after 1.5s)" {
			t.Errorf("told %q", *told)
		}
	})

	t.Run("push", func(t *testing.T) {
		if err := installHook(filepath.Join(w.bare, "hooks"), "post-receive", holdHook); err != nil {
			t.Fatal(err)
		}
		s, told := syncer("origin", 6*time.Second)
		results, _, err := s.Push([]string{"s1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 1 || results[0].Outcome != refsync.Failed ||
			results[0].Detail != "no answer from origin within 6s (git push was stopped); whether the remote took it, the next sync shows" {
			t.Fatalf("results = %+v", results)
		}
		if n := len(*told); n == 0 || (*told)[n-1] != "waiting for origin to answer git push (gives up after 6s)" {
			t.Errorf("told %q", *told)
		}
		if err := os.Remove(filepath.Join(w.bare, "hooks", "post-receive")); err != nil {
			t.Fatal(err)
		}
		if err := waitNoLocks(w.bare); err != nil {
			t.Fatal(err)
		}
		s, _ = syncer("origin", time.Minute)
		results, notes, err := s.Push([]string{"s1"})
		if err != nil || len(results) != 1 || results[0].Outcome != refsync.UpToDate {
			t.Fatalf("the push after: %+v, %v", results, err)
		}
		if len(notes) != 1 || !strings.HasPrefix(notes[0], "note: the base of s1 was none, behind ") {
			t.Errorf("notes = %q", notes)
		}
	})
}
