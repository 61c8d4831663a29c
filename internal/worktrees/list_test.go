package worktrees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/slices"
)

// claim makes agent claim the next ready slice of session id at p.now,
// for lease, journaled as slice claim.
func (p *place) claim(t *testing.T, id, agent string, lease time.Duration) {
	t.Helper()
	p.update(t, "slice claim", func(tx *state.Tx) error {
		data, err := tx.Read(id, state.LedgerFile)
		if err != nil {
			return err
		}
		l, err := slices.Parse(data)
		if err != nil {
			return err
		}
		r, err := l.Claim(agent, p.now, lease)
		if err != nil {
			return err
		}
		tx.Write(id, state.LedgerFile, l.Marshal())
		tx.Touch(id, map[string]string{"id": r.ID, "agent": agent})
		return nil
	})
}

// The list says, of each worktree git lists, which session verbs select
// there (a binding's, else the branch's own, marked so), its agent and the
// live claims of that agent (the binding's, else the worktree's path);
// then each binding git lists no worktree for: gone, or another
// repository's.
func TestListRowsSayWhichSessionEachWorktreeSelects(t *testing.T) {
	p := newPlace(t)
	main := p.main(t)
	p.d.Git = &main
	one := p.tree(t, "one", "ref: refs/heads/feat")
	two := p.tree(t, "two", "ref: refs/heads/b")
	gone := p.tree(t, "gone", "ref: refs/heads/old")
	p.tree(t, "detached", "0123456789012345678901234567890123456789")
	for _, bind := range []struct {
		l            gitx.Layout
		session, who string
	}{{one, "a", "x"}, {gone, "a", ""}} {
		if err := p.run("").bind(bind.l, bind.session, bind.who); err != nil {
			t.Fatal(err)
		}
	}
	p.claim(t, "a", "x", time.Hour)                   // slice 1, live
	p.claim(t, "b", two.WorktreeRoot, time.Hour)      // slice 1, by two's default agent
	p.claim(t, "b", "x", time.Minute)                 // slice 2, not x's in b's worktree
	if err := os.RemoveAll(gone.GitDir); err != nil { // git worktree prune
		t.Fatal(err)
	}
	p.update(t, "plant", func(tx *state.Tx) error { // a binding copied from another repository
		f, err := selection.ReadBindings(tx.Dir())
		if err != nil {
			return err
		}
		f.Put(binding.Binding{Path: filepath.Join(p.root, "elsewhere"), GitDir: filepath.Join(p.root, "other", ".git", "worktrees", "w"),
			Session: "b", BoundAt: tx.Dir().Now()})
		Write(tx, f)
		return nil
	})
	p.now = t0.Add(2 * time.Minute) // x's claim in b has ended
	rows, err := List(p.d, p.now)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, strings.ReplaceAll(r.Text(), p.root+string(filepath.Separator), ""))
	}
	want := []string{
		"repo\tmain\t-\t-\t-",
		"detached\t(detached)\t-\t-\t-",
		"one\tfeat\ta\tx\t1",
		"two\tb\tb (branch)\t-\t1",
		"elsewhere\t(other repository)\tb\t-\t-",
		"gone\t(gone)\ta\t-\t-",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A row's text escapes what it prints from data and shows nothing as "-".
func TestRowTextEscapesDataAndDashesNothing(t *testing.T) {
	for _, tt := range []struct {
		row  Row
		want string
	}{
		{Row{}, "-\t-\t-\t-\t-"},
		{Row{Path: "/w\x1b[31m", Branch: "feat\tx", Session: "s", Bound: true, Agent: "a\nb", Claims: []string{"1", "2"}},
			`/w\x1b[31m` + "\t" + `feat\tx` + "\ts\t" + `a\nb` + "\t1,2"},
		{Row{Path: "/w", Branch: "b", Detached: true, Gone: true, Foreign: true}, "/w\t(other repository)\t-\t-\t-"},
	} {
		if got := tt.row.Text(); got != tt.want {
			t.Errorf("Text() = %q, want %q", got, tt.want)
		}
	}
}
