package worktrees

import (
	"testing"

	"github.com/orc-state/orc-state/internal/fault"
)

// A worktree is bound to one session at a time and an agent id to one
// worktree of a session; a refused bind, and a bind that is so already,
// change nothing on disk; every bind that writes is journaled in the
// session.
func TestBindKeepsOneSessionPerWorktreeAndOneWorktreePerAgent(t *testing.T) {
	p := newPlace(t)
	for _, step := range []struct {
		name, tree, head, session, agent string
		code                             int    // fault.Code of the error; 0: bound
		want                             string // the bindings after
	}{
		{"a new worktree is bound as its agent", "one", "ref: refs/heads/feat", "a", "x", 0, "one a x"},
		{"bound so already: nothing written", "one", "ref: refs/heads/feat", "a", "", 0, "one a x"},
		{"bound to another session: leave first", "one", "ref: refs/heads/feat", "b", "", fault.Usage, "one a x"},
		{"the agent has a worktree in the session", "two", "ref: refs/heads/feat2", "a", "x", fault.Usage, "one a x"},
		{"another agent gets a second worktree", "two", "ref: refs/heads/feat2", "a", "y", 0, "one a x\ntwo a y"},
		{"a new agent for a bound worktree", "one", "ref: refs/heads/feat", "a", "z", 0, "one a z\ntwo a y"},
		{"the branch checked out has its own session", "three", "ref: refs/heads/b", "a", "", fault.Usage, "one a z\ntwo a y"},
		{"a detached HEAD has no branch to conflict", "five", "0123456789012345678901234567890123456789", "a", "", 0, "five a\none a z\ntwo a y"},
		{"no such session", "four", "ref: refs/heads/feat4", "c", "", fault.NotFound, "five a\none a z\ntwo a y"},
	} {
		l := p.tree(t, step.tree, step.head)
		before, seq := p.files(t), 0
		if step.code == 0 {
			seq = p.lastEntry(t, step.session).Seq
		}
		err := p.run("").bind(l, step.session, step.agent)
		if got := fault.Code(err); got != step.code {
			t.Fatalf("%s: exit %d (%v), want %d", step.name, got, err, step.code)
		}
		if got := p.bindings(t); got != step.want {
			t.Fatalf("%s: bindings\n%s\nwant\n%s", step.name, got, step.want)
		}
		wrote := step.code == 0 && step.name != "bound so already: nothing written"
		if after := p.files(t); (after != before) != wrote {
			t.Fatalf("%s: the state dir changed: %v, want %v", step.name, after != before, wrote)
		}
		if wrote {
			if e := p.lastEntry(t, step.session); e.Seq != seq+1 || e.Verb != "worktree join" {
				t.Fatalf("%s: journal ends with %d %q, want %d %q", step.name, e.Seq, e.Verb, seq+1, "worktree join")
			}
		}
	}
}

// Join takes the session from --session, else $ORC_SESSION, refuses to
// guess one, and never binds the main worktree.
func TestJoinNamesTheSessionOrRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, flag, env string
		main            bool
		code            int
		want            string
	}{
		{"--session", "a", "b", false, 0, "one a"},
		{"$ORC_SESSION", "", "b", false, 0, "one b"},
		{"neither", "", "", false, fault.Usage, ""},
		{"a name that is no key", "../x", "", false, fault.Usage, ""},
		{"the main worktree", "a", "", true, fault.Usage, ""},
	} {
		p := newPlace(t)
		l := p.tree(t, "one", "ref: refs/heads/feat")
		l.Linked = !tt.main
		p.d.Git = &l
		_, err := p.run(tt.env).Join(tt.flag, "")
		if got := fault.Code(err); got != tt.code {
			t.Fatalf("%s: exit %d (%v), want %d", tt.name, got, err, tt.code)
		}
		if got := p.bindings(t); got != tt.want {
			t.Fatalf("%s: bindings %q, want %q", tt.name, got, tt.want)
		}
	}
}
