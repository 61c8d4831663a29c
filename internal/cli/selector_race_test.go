package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/app"

	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// TestBindingRemovedUnderTheVerbIsNotFound: a verb in a bound worktree
// chose its session by the binding, then a concurrent session remove
// dropped the session and the binding before the verb took the lock.
// Judged under the lock with the bindings read again, that is exit 1 (no
// such session), never exit 3 (a dangling binding); a binding still on
// disk to a session that is gone is exit 3, as before.
func TestBindingRemovedUnderTheVerbIsNotFound(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	main, wt := filepath.Join(dir, "main"), filepath.Join(dir, "wt")
	env := environ.List{"HOME=" + dir, "PATH=" + environ.OS().Get("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	git := func(in string, args ...string) {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir, c.Env = in, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	orc := func(in string, args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := Run(Process{Args: args, Stdout: &out, Stderr: &errs, Environ: env, Dir: in, Now: func() time.Time { return time.Unix(1_900_000_000, 0) }})
		return code, errs.String()
	}
	git(dir, "init", "-q", "-b", "feat/k", main)
	git(main, "commit", "-q", "--allow-empty", "-m", "base")
	if code, errs := orc(main, "init", "--command", "flow", "--total-phases", "2"); code != 0 {
		t.Fatal(errs)
	}
	git(main, "worktree", "add", "-q", "-b", "feat/k-1", wt)
	if code, errs := orc(wt, "worktree", "join", "--session", "feat-k"); code != 0 {
		t.Fatal(errs)
	}

	// The verb's choice, made before any lock, as slice claim makes it.
	chosen := func() (*app.Txn, selection.Choice) {
		p := Process{Args: []string{"slice", "claim"}, Environ: env, Dir: wt}
		bound := bind(p.settled(), &bytes.Buffer{}, &bytes.Buffer{}, &Globals{LockTimeout: time.Second}, "slice claim", "")
		var txn *app.Txn
		for _, v := range bound {
			if t, ok := v.(*app.Txn); ok {
				txn = t
			}
		}
		c, err := txn.Where().Choose("")
		if err != nil || c.Via != selection.ViaBinding || c.ID != "feat-k" {
			t.Fatalf("choice %+v, %v; want feat-k via the binding", c, err)
		}
		return txn, c
	}
	txn, c := chosen()
	// Meanwhile: the session is removed, and its binding with it.
	if code, errs := orc(main, "session", "remove", "--session", "feat-k", "--force"); code != 0 {
		t.Fatal(errs)
	}
	err := txn.OnChoice(c, func(*state.Tx, *registry.Session) error { return nil })
	if code, msg, _ := fault.Explain(err); code != fault.NotFound || !strings.Contains(msg, "removed while this command ran") {
		t.Fatalf("after a concurrent removal: exit %d, %q; want exit 1 saying so", code, msg)
	}

	// A binding left on disk to a session that is gone (a hand edit put it
	// back) is still exit 3.
	if code, errs := orc(main, "init", "--command", "flow", "--total-phases", "2"); code != 0 {
		t.Fatal(errs)
	}
	if code, errs := orc(wt, "worktree", "join", "--session", "feat-k"); code != 0 {
		t.Fatal(errs)
	}
	bindings := filepath.Join(main, ".orc", "worktrees.json")
	saved, err := os.ReadFile(bindings)
	if err != nil {
		t.Fatal(err)
	}
	txn, c = chosen()
	if code, errs := orc(main, "session", "remove", "--session", "feat-k", "--force"); code != 0 {
		t.Fatal(errs)
	}
	if err := os.WriteFile(bindings, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	err = txn.OnChoice(c, func(*state.Tx, *registry.Session) error { return nil })
	if code, msg, _ := fault.Explain(err); code != fault.Invalid || !strings.Contains(msg, "which does not exist") {
		t.Fatalf("a dangling binding: exit %d, %q; want exit 3", code, msg)
	}
}
