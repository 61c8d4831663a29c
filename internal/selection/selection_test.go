package selection

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/environ"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// world is a repository whose main worktree has feat/x checked out and
// whose linked worktree wt has work checked out; branch feat-x exists
// too (it maps to feat/x's sessionId).
type world struct {
	main, wt string
	env      environ.List
}

func newWorld(t *testing.T) world {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	w := world{main: filepath.Join(dir, "main"), wt: filepath.Join(dir, "wt")}
	w.env = environ.List{"HOME=" + dir, "PATH=" + environ.OS().Get("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	git := func(in string, args ...string) {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir, c.Env = in, w.env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(dir, "init", "-q", "-b", "feat/x", w.main)
	git(w.main, "commit", "-q", "--allow-empty", "-m", "base")
	git(w.main, "branch", "feat-x")
	git(w.main, "worktree", "add", "-q", "-b", "work", w.wt)
	return w
}

// where is the Where of a run in folder in, with the variables vars, the
// --session flag and the binding bound (nil: the worktree is bound to
// nothing).
func (w world) where(t *testing.T, in, flag string, vars map[string]string, bound *binding.Binding) Where {
	t.Helper()
	d, err := state.Resolve("", in, w.env)
	if err != nil {
		t.Fatal(err)
	}
	return Where{
		Flag:    flag,
		Getenv:  func(k string) string { return vars[k] },
		Dir:     func() (*state.Dir, error) { return d, nil },
		Binding: func() (*binding.Binding, error) { return bound, nil },
	}
}

func sessions(list ...string) *registry.Registry {
	reg := &registry.Registry{Schema: registry.Schema}
	for _, l := range list {
		id, branch, _ := strings.Cut(l, "@")
		status := "in_progress"
		if b, st, ok := strings.Cut(branch, ":"); ok {
			branch, status = b, st
		}
		reg.Sessions = append(reg.Sessions, registry.Session{SessionID: id, GitBranch: branch, Status: status})
	}
	return reg
}

// TestChooseFollowsFlagsThenEnvThenBindingThenBranch: the command line
// beats $ORC_SESSION, which beats the worktree's binding, which beats the
// branch checked out; a name that is no branch may be a sessionId; what
// matches only once sanitized, two names at once, and an implicit choice
// that disagrees with the branch's own session are refused (exit 2), and
// nothing found is exit 1.
func TestChooseFollowsFlagsThenEnvThenBindingThenBranch(t *testing.T) {
	w := newWorld(t)
	reg := sessions("feat-x@feat/x", "other@other", "bound@bound", "old-one@old/one")
	withOwn := sessions("feat-x@feat/x", "other@other", "bound@bound", "work@work")
	withOwnDone := sessions("other@other", "work@work:done")
	bound := &binding.Binding{Session: "bound"}
	env := map[string]string{"ORC_SESSION": "other"}
	tests := []struct {
		name     string
		in       string // w.main or w.wt
		explicit string
		flag     string
		vars     map[string]string
		bound    *binding.Binding
		reg      *registry.Registry
		want     string // the sessionId found, or "exit N: fragment"
	}{
		{name: "--session beats $ORC_SESSION and the binding", in: w.wt, flag: "feat-x", vars: env, bound: bound, reg: reg, want: "feat-x"},
		{name: "a named branch beats $ORC_SESSION and the binding", in: w.wt, explicit: "feat/x", vars: env, bound: bound, reg: reg, want: "feat-x"},
		{name: "$ORC_SESSION beats the binding", in: w.wt, vars: env, bound: bound, reg: reg, want: "other"},
		{name: "the binding beats the branch checked out", in: w.wt, bound: bound, reg: reg, want: "bound"},
		{name: "the branch checked out, with nothing else", in: w.main, reg: reg, want: "feat-x"},
		{name: "a name that is no branch is a sessionId", in: w.main, explicit: "old-one", reg: reg, want: "old-one"},
		{name: "the branch with no session is not found", in: w.wt, reg: reg, want: "exit 1: no session for \"work\""},
		{name: "--session and a branch at once is ambiguous", in: w.main, explicit: "feat/x", flag: "feat-x", reg: reg, want: "exit 2: name the session once"},
		{name: "a branch that maps to another branch's session collides", in: w.main, explicit: "feat-x", reg: reg, want: "exit 2: session feat-x is branch \"feat/x\"'s"},
		{name: "a binding beside the branch's own session is ambiguous", in: w.wt, bound: bound, reg: withOwn, want: "exit 2: bound to session bound, but its branch \"work\" has its own session work"},
		{name: "$ORC_SESSION beside the branch's own live session is ambiguous", in: w.wt, vars: env, reg: withOwn, want: "exit 2: has its own live session work"},
		{name: "$ORC_SESSION beside the branch's own finished session wins", in: w.wt, vars: env, reg: withOwnDone, want: "other"},
		{name: "$ORC_SESSION naming no session is not found", in: w.wt, vars: map[string]string{"ORC_SESSION": "gone"}, reg: reg, want: "exit 1: the value of $ORC_SESSION"},
		{name: "$ORC_SESSION that can be no session is a usage error", in: w.wt, vars: map[string]string{"ORC_SESSION": ".."}, reg: reg, want: "exit 2: $ORC_SESSION"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := w.where(t, tt.in, tt.flag, tt.vars, tt.bound).Choose(tt.explicit)
			var s *registry.Session
			if err == nil {
				s, err = c.Find(tt.reg)
			}
			got := ""
			if err != nil {
				code, msg, _ := fault.Explain(err)
				got = "exit " + string(rune('0'+code)) + ": " + msg
			} else {
				got = s.SessionID
			}
			if strings.HasPrefix(tt.want, "exit ") {
				code, frag, _ := strings.Cut(tt.want, ": ")
				if !strings.HasPrefix(got, code+": ") || !strings.Contains(got, frag) {
					t.Fatalf("got %q, want %s", got, tt.want)
				}
			} else if got != tt.want {
				t.Fatalf("got %q, want session %s", got, tt.want)
			}
		})
	}
}

// TestBoundSessionVanishedIsNotFoundDanglingIsInvalid: a session chosen
// by the binding that is gone together with its binding was removed by
// a concurrent writer (exit 1); gone while the binding is still on disk
// is a dangling binding (exit 3, naming doctor).
func TestBoundSessionVanishedIsNotFoundDanglingIsInvalid(t *testing.T) {
	w := newWorld(t)
	reg := sessions("feat-x@feat/x")
	probe := w.where(t, w.wt, "", nil, nil)
	d, _ := probe.Dir()
	b := binding.Binding{Path: d.Git.WorktreeRoot, GitDir: d.Git.GitDir, Session: "gone", BoundAt: "2030-01-01T00:00:00Z", GitDirMade: binding.MadeAt(d.Git.GitDir)}
	c, err := w.where(t, w.wt, "", nil, &b).Choose("")
	if err != nil || c.Via != ViaBinding || c.ID != "gone" {
		t.Fatalf("choice %+v, %v; want gone via the binding", c, err)
	}
	if _, err := c.Find(reg); fault.Code(err) != fault.NotFound || !strings.Contains(err.Error(), "removed while this command ran") {
		t.Fatalf("binding gone with its session: %v (exit %d), want exit 1 saying it was removed", err, fault.Code(err))
	}
	f := &binding.File{Schema: 1, Worktrees: []binding.Binding{b}}
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path, binding.FileName), f.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := WorktreeBinding(d)
	if err != nil || got == nil || got.Session != "gone" {
		t.Fatalf("WorktreeBinding = %+v, %v; want the binding to gone", got, err)
	}
	if _, err := c.Find(reg); fault.Code(err) != fault.Invalid || !strings.Contains(err.Error(), "which does not exist") {
		t.Fatalf("binding on disk, session gone: %v (exit %d), want exit 3", err, fault.Code(err))
	}
}

// TestWorktreeBindingOnlyInALinkedWorktree: the main worktree is never
// bound, whatever worktrees.json says.
func TestWorktreeBindingOnlyInALinkedWorktree(t *testing.T) {
	w := newWorld(t)
	d, _ := w.where(t, w.main, "", nil, nil).Dir()
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		t.Fatal(err)
	}
	f := &binding.File{Schema: 1, Worktrees: []binding.Binding{{Path: d.Git.WorktreeRoot, GitDir: d.Git.GitDir, Session: "feat-x", BoundAt: "2030-01-01T00:00:00Z"}}}
	if err := os.WriteFile(filepath.Join(d.Path, binding.FileName), f.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := WorktreeBinding(d); b != nil || err != nil {
		t.Fatalf("main worktree: %+v, %v; want no binding", b, err)
	}
}
