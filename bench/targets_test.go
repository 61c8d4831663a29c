package main

import (
	"testing"
	"time"
)

// TestGitBoundRowsAreHeldToTheGitFloor: on the large work tree each
// git-bound verb is a ratio over the git floor of its rounds, held to
// ≤ 1.15× it (PASS at the limit, OVER past it); the git floor is the
// reference and git status is shown as its ratio to the floor, with no
// verdict.
func TestGitBoundRowsAreHeldToTheGitFloor(t *testing.T) {
	g := &group{name: "20,000-file repo", role: roleGit}
	row := func(key string, c class, ms float64) result {
		return result{group: g, c: benchCase{key: key, class: c}, median: time.Duration(ms * float64(time.Millisecond))}
	}
	rs := []result{
		row(gitStatusKey, classGitRef, 28),
		row(gitFloorKey, classGitFloor, 30),
		row("at the limit", classGit, 34.5),
		row("past it", classGit, 34.6),
		row("fast", classGit, 31),
	}
	applyTargets(rs)
	for _, tt := range []struct {
		key             string
		over            float64
		target, verdict string
	}{
		{gitStatusKey, 28.0 / 30, "git itself, for comparison", ""},
		{gitFloorKey, 0, "reference: the least any tool that runs git status costs", ""},
		{"at the limit", 34.5 / 30, "≤ 1.15× git floor", "PASS"},
		{"past it", 34.6 / 30, "≤ 1.15× git floor", "OVER (time)"},
		{"fast", 31.0 / 30, "≤ 1.15× git floor", "PASS"},
	} {
		var r *result
		for i := range rs {
			if rs[i].c.key == tt.key {
				r = &rs[i]
			}
		}
		if d := r.overFloor - tt.over; d > 1e-9 || d < -1e-9 || r.target != tt.target || r.verdict != tt.verdict {
			t.Errorf("%s: %.4f× %q %q; want %.4f× %q %q", tt.key, r.overFloor, r.target, r.verdict, tt.over, tt.target, tt.verdict)
		}
	}
}

// TestLimitText: a target's limit keeps its second decimal when it has
// one, and shows one otherwise.
func TestLimitText(t *testing.T) {
	for limit, want := range map[float64]string{1.8: "1.8", 3: "3.0", 1.15: "1.15", 1.3: "1.3", 2: "2.0"} {
		if got := limitText(limit); got != want {
			t.Errorf("limitText(%v) = %q, want %q", limit, got, want)
		}
	}
}
