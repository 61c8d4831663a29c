package worktrees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/fault"
)

// The branch git will check out is told from the arguments as git tells
// it: -b's, none for --detach, the commit-ish, else the folder's name.
func TestBranchToBeIsGitsChoice(t *testing.T) {
	for _, tt := range []struct {
		a    NewWorktree
		want string
	}{
		{NewWorktree{Path: "/w/feat", NewBranch: "nb", Commit: "main"}, "nb"},
		{NewWorktree{Path: "/w/feat", Detach: true, Commit: "main"}, ""},
		{NewWorktree{Path: "/w/feat", Commit: "main"}, "main"},
		{NewWorktree{Path: "/w/feat"}, "feat"},
	} {
		if got := tt.a.branchToBe(); got != tt.want {
			t.Errorf("branchToBe(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}

// worktree add refuses, before git is asked and with nothing written, a
// folder in the state dir, a branch with another session of its own, a
// folder that is not empty and an agent bound elsewhere in the session.
func TestAddRefusesBeforeGitIsAsked(t *testing.T) {
	p := newPlace(t)
	main := p.main(t)
	p.d.Git = &main
	if err := p.run("").bind(p.tree(t, "one", "ref: refs/heads/feat"), "a", "x"); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(p.root, "full")
	write(t, filepath.Join(full, "file"), "x")
	for _, tt := range []struct {
		name string
		a    NewWorktree
		says string
	}{
		{"inside the state dir", NewWorktree{Path: filepath.Join(p.d.Path, "w"), NewBranch: "nb"}, "inside the state dir"},
		{"-b names another session's branch", NewWorktree{Path: filepath.Join(p.root, "w"), NewBranch: "b"}, "has its own session b"},
		{"the folder is named for another session's branch", NewWorktree{Path: filepath.Join(p.root, "b")}, "has its own session b"},
		{"a folder that is not empty", NewWorktree{Path: full, Detach: true}, "is not an empty folder"},
		{"the agent has a worktree", NewWorktree{Path: filepath.Join(p.root, "w"), Detach: true, Agent: "x"}, "agent x is already bound"},
	} {
		r := p.run("")
		r.Where.Flag = "a"
		before := p.files(t)
		_, err := r.Add(tt.a)
		if fault.Code(err) != fault.Usage || err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Fatalf("%s: %v (exit %d), want exit 2 saying %q", tt.name, err, fault.Code(err), tt.says)
		}
		if p.files(t) != before {
			t.Fatalf("%s: a refusal wrote", tt.name)
		}
		if _, err := os.Stat(filepath.Join(p.root, "w")); err == nil {
			t.Fatalf("%s: a worktree was made", tt.name)
		}
	}
}
