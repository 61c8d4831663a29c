package worktrees

import (
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
)

// Leave removes a binding once, journaled in its session, and never the
// worktree; leaving a worktree bound to nothing writes nothing.
func TestLeaveUnbindsOnceAndJournalsInTheSession(t *testing.T) {
	p := newPlace(t)
	one := p.tree(t, "one", "ref: refs/heads/feat")
	if err := p.run("").bind(one, "a", "x"); err != nil {
		t.Fatal(err)
	}
	seq := p.lastEntry(t, "a").Seq
	left, at, err := p.run("").Leave(one.WorktreeRoot + "/")
	if err != nil || left == nil || left.Session != "a" || left.Path != one.WorktreeRoot || at != one.WorktreeRoot+"/" {
		t.Fatalf("Leave = %+v, %q, %v", left, at, err)
	}
	if got := p.bindings(t); got != "" {
		t.Fatalf("bindings left: %q", got)
	}
	if e := p.lastEntry(t, "a"); e.Seq != seq+1 || !strings.Contains(string(e.Args), one.WorktreeRoot) {
		t.Fatalf("journal ends with %d %s, want %d naming the worktree", e.Seq, e.Args, seq+1)
	}
	before := p.files(t)
	if left, _, err := p.run("").Leave(one.WorktreeRoot); err != nil || left != nil {
		t.Fatalf("second Leave = %+v, %v", left, err)
	}
	if p.files(t) != before {
		t.Fatal("leaving an unbound worktree wrote")
	}
}

// Remove refuses, before git is asked, a worktree whose agent (the
// binding's, else the worktree's path) holds a live claim in its
// session, unless forced; an ended claim holds nothing.
func TestRemoveRefusesAWorktreeWhoseAgentHoldsLiveClaims(t *testing.T) {
	for _, tt := range []struct {
		name, holder string // "path": the worktree's own path
		after        time.Duration
		force        bool
		refused      bool
	}{
		{"the bound agent holds one", "x", 0, false, true},
		{"the path holds one", "path", 0, false, true},
		{"another agent holds one", "y", 0, false, false},
		{"the claim has ended", "x", 2 * time.Hour, false, false},
		{"forced", "x", 0, true, false},
	} {
		p := newPlace(t)
		one := p.tree(t, "one", "ref: refs/heads/feat")
		if err := p.run("").bind(one, "a", "x"); err != nil {
			t.Fatal(err)
		}
		holder := tt.holder
		if holder == "path" {
			holder = one.WorktreeRoot
		}
		p.claim(t, "a", holder, time.Hour)
		p.now = t0.Add(tt.after)
		before := p.files(t)
		_, err := p.run("").Remove(one.WorktreeRoot, tt.force)
		// past the refusal, the next step asks git, of which this state dir
		// knows none
		refused := fault.Code(err) == fault.NotFound && strings.Contains(err.Error(), "holds live claims")
		if refused != tt.refused || err == nil {
			t.Fatalf("%s: %v; refused %v, want %v", tt.name, err, refused, tt.refused)
		}
		if p.files(t) != before {
			t.Fatalf("%s: a refusal wrote", tt.name)
		}
	}
}
