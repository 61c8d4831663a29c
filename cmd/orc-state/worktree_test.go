package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orc-state/orc-state/internal/clitest"
)

// TestWorktreesWorkOneLedger is bound worktrees end to end, in process:
// a session on feat/par with a ten-slice ledger in the main worktree, and
// four linked worktrees working it with no flag at all: two added on new
// branches, one added detached, one made with git alone and joined after
// the fact. Round after round each worktree claims a slice, moves it
// red, green and committed with a commit made in that worktree (which
// ends the claim); the main worktree sees who holds what. Every slice is
// claimed exactly once, and once the session's branch has merged the
// worktrees' commits verify is clean.
func TestWorktreesWorkOneLedger(t *testing.T) {
	r := clitest.NewRig(t, "git")
	r.Git("checkout", "-q", "-b", "feat/par")
	r.MustOrc("", "init", "--command", "flow", "--total-phases", "3")
	var plan strings.Builder
	plan.WriteString(`{"slices": [`)
	for k := 1; k <= 10; k++ {
		if k > 1 {
			plan.WriteString(", ")
		}
		fmt.Fprintf(&plan, `{"id": %d, "title": "slice %d"}`, k, k)
	}
	plan.WriteString("]}")
	r.MustOrc(plan.String(), "slice", "init", "-")

	up := filepath.Dir(r.Dir)
	at := func(name string) *clitest.Rig { return &clitest.Rig{T: t, Dir: filepath.Join(up, name), Env: r.Env} }
	r.MustOrc("", "worktree", "add", "../w1", "-b", "feat/par-1", "--agent", "a1")
	r.MustOrc("", "worktree", "add", "../w2", "-b", "feat/par-2", "--agent", "a2")
	if out := r.MustOrc("", "worktree", "add", "../w3", "--detach", "--agent", "a3"); out != filepath.Join(up, "w3")+"\t(detached)\tfeat-par\ta3\t-\n" {
		t.Errorf("worktree add --detach printed %q", out)
	}
	r.Git("worktree", "add", "-q", "../w4", "-b", "feat/par-4")
	w4 := at("w4")
	if code, _, stderr := w4.Orc("", "slice", "claim"); code != 1 || !strings.Contains(stderr, "orc-state worktree join --session=feat-par") {
		t.Errorf("an unbound worktree's claim: exit %d, %s", code, stderr)
	}
	w4.MustOrc("", "worktree", "join", "--session", "feat-par")
	trees := []*clitest.Rig{at("w1"), at("w2"), at("w3"), w4}
	agents := []string{"a1", "a2", "a3", w4.Dir}

	done := 0
	for round := 1; done < 10; round++ {
		held := map[*clitest.Rig]string{}
		for i, w := range trees {
			code, stdout, stderr := w.Orc("", "slice", "claim", "--lease", "10m")
			if code == 1 && done+len(held) == 10 {
				continue // nothing left to claim
			}
			if code != 0 {
				t.Fatalf("round %d, %s: slice claim: exit %d: %s", round, agents[i], code, stderr)
			}
			held[w] = strings.TrimSpace(stdout)
		}
		if round == 1 {
			list := r.MustOrc("", "slice", "list")
			for i, a := range agents {
				want := fmt.Sprintf("%d\tpending\tslice %d\t-\t%s until ", i+1, i+1, a)
				if !strings.Contains(list, want) {
					t.Errorf("slice list in the main worktree lacks %q:\n%s", want, list)
				}
			}
			rows := r.MustOrc("", "worktree", "list")
			if !strings.Contains(rows, filepath.Join(up, "w2")+"\tfeat/par-2\tfeat-par\ta2\t2\n") ||
				!strings.Contains(rows, w4.Dir+"\tfeat/par-4\tfeat-par\t-\t4\n") {
				t.Errorf("worktree list:\n%s", rows)
			}
		}
		for i, w := range trees {
			id, ok := held[w]
			if !ok {
				continue
			}
			w.Git("commit", "-q", "--allow-empty", "-m", "slice "+id+" by "+agents[i])
			sha := strings.TrimSpace(w.Git("rev-parse", "HEAD"))
			for _, step := range [][]string{{"--status", "red"}, {"--status", "green"}, {"--status", "committed", "--commit", sha}} {
				w.MustOrc("", append([]string{"slice", "set", id}, step...)...)
			}
			done++
		}
	}
	// Nothing left: each worktree hears so, and no claim is left behind.
	for _, w := range trees {
		if code, _, stderr := w.Orc("", "slice", "claim"); code != 1 || !strings.Contains(stderr, "nothing to claim: all 10 slices are done") {
			t.Errorf("a claim on a finished ledger: exit %d: %s", code, stderr)
		}
	}
	var rows []struct {
		ID, Status, Commit, ClaimedBy string
	}
	if err := json.Unmarshal([]byte(r.MustOrc("", "slice", "list", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if row.Status != "committed" || row.ClaimedBy != "" || len(row.Commit) != 40 {
			t.Errorf("slice %s ended as %+v", row.ID, row)
		}
	}
	// Every slice claimed exactly once, journaled in the one session.
	claims := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.MustOrc("", "log", "--json")), "\n") {
		var e struct {
			Verb string
			Args struct{ ID, Agent string }
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if e.Verb == "slice claim" {
			claims[e.Args.ID]++
		}
	}
	for k := 1; k <= 10; k++ {
		if n := claims[fmt.Sprint(k)]; n != 1 {
			t.Errorf("slice %d was claimed %d times", k, n)
		}
	}
	// The session's branch takes the worktrees' work (the detached one's by
	// its commit); then every committed slice is reachable and verify is
	// clean.
	if code, stdout, stderr := r.Orc("", "verify"); code != 1 || !strings.Contains(stdout, "slice.unreachable-commit: slice 1 ") {
		t.Errorf("verify before the merge: exit %d\n%s%s", code, stdout, stderr)
	}
	r.Git("merge", "-q", "--no-edit", "feat/par-1", "feat/par-2", strings.TrimSpace(at("w3").Git("rev-parse", "HEAD")), "feat/par-4")
	if code, stdout, stderr := r.Orc("", "verify"); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
}
