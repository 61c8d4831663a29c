package gitx

import (
	"errors"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

// fastCommit is one commit of a synthetic history: parent indexes (into the
// same slice) and a committer time offset in seconds.
type fastCommit struct {
	parents []int
	time    int64
}

// fastImport writes history to a new repository in one git fast-import run
// (branch main at the last commit) and returns the repo and the shas.
func fastImport(t *testing.T, history []fastCommit) (string, []string) {
	t.Helper()
	repo := initRepo(t)
	var b strings.Builder
	for i, c := range history {
		msg := fmt.Sprintf("c%d", i)
		if len(c.parents) == 0 {
			b.WriteString("reset refs/heads/main\n\n") // a root commit, even mid-stream
		}
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\n", i+1)
		fmt.Fprintf(&b, "committer Orc <orc@example.invalid> %d +0000\n", 1_700_000_000+c.time)
		fmt.Fprintf(&b, "data %d\n%s\n", len(msg), msg)
		for j, p := range c.parents {
			if j == 0 {
				fmt.Fprintf(&b, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&b, "merge :%d\n", p+1)
			}
		}
		b.WriteString("\n")
	}
	for i := range history {
		fmt.Fprintf(&b, "get-mark :%d\n", i+1)
	}
	cmd := exec.Command(gitBin, "fast-import", "--quiet", "--force")
	cmd.Dir = repo
	cmd.Env = gitEnv()
	cmd.Stdin = strings.NewReader(b.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fast-import: %v", err)
	}
	shas := strings.Fields(string(out))
	if len(shas) != len(history) {
		t.Fatalf("fast-import printed %d marks, want %d", len(shas), len(history))
	}
	mustGit(t, repo, "reset", "-q", "--hard", "main")
	return repo, shas
}

// ancestorSets computes, for every commit, the set of its ancestors
// (itself included) from the synthetic parent lists.
func ancestorSets(history []fastCommit) []map[int]bool {
	sets := make([]map[int]bool, len(history))
	for i, c := range history { // parents always precede children
		s := map[int]bool{i: true}
		for _, p := range c.parents {
			for x := range sets[p] {
				s[x] = true
			}
		}
		sets[i] = s
	}
	return sets
}

func TestCommitsBetweenLinearIsCheap(t *testing.T) {
	t.Parallel()
	needGit(t)
	history := make([]fastCommit, 500)
	for i := range history {
		history[i].time = int64(i) * 60
		if i > 0 {
			history[i].parents = []int{i - 1}
		}
	}
	repo, shas := fastImport(t, history)
	r := mustOpen(t, repo)
	h := func(i int) string { return shas[i] }
	n, reach, reads, err := r.commitsBetween(h(496), h(499), maxWalk)
	if err != nil || n != 3 || !reach {
		t.Fatalf("commitsBetween(496, 499) = %d, %v, %v", n, reach, err)
	}
	if reads > 3+2+walkSlop {
		t.Errorf("walk read %d commits for a distance of 3", reads)
	}
	if n, reach, _, err := r.commitsBetween(h(0), h(499), maxWalk); n != 499 || !reach || err != nil {
		t.Errorf("commitsBetween(0, 499) = %d, %v, %v", n, reach, err)
	}
	if n, reach, _, err := r.commitsBetween(h(499), h(0), maxWalk); n != 0 || reach || err != nil {
		t.Errorf("commitsBetween(499, 0) = %d, %v, %v", n, reach, err)
	}

	if _, _, _, err := r.commitsBetween(h(0), h(499), 100); !errors.Is(err, ErrWalkLimit) {
		t.Errorf("CommitsBetween over the walk limit = %v, want ErrWalkLimit", err)
	}
}

// TestCommitsBetweenRandomDAG compares against the true ancestor sets on
// random merge-heavy histories with monotonic, frequently equal, times.
func TestCommitsBetweenRandomDAG(t *testing.T) {
	t.Parallel()
	needGit(t)
	rng := rand.New(rand.NewSource(42))
	history := make([]fastCommit, 150)
	for i := range history {
		history[i].time = int64(i / 3) // groups of three share a second
		switch {
		case i == 0 || i == 70: // two roots
		case rng.Intn(4) == 0 && i > 2:
			a, b := rng.Intn(i), rng.Intn(i)
			if a == b {
				b = i - 1
			}
			if a == b {
				history[i].parents = []int{a}
			} else {
				history[i].parents = []int{a, b}
			}
		default:
			history[i].parents = []int{i - 1 - rng.Intn(min(i, 4))}
		}
	}
	repo, shas := fastImport(t, history)
	r := mustOpen(t, repo)
	sets := ancestorSets(history)
	if got := mustGit(t, repo, "rev-list", "--count", shas[len(shas)-1]); got != fmt.Sprint(len(sets[len(sets)-1])) {
		t.Fatalf("synthetic history not as planned: git counts %s ancestors, want %d", got, len(sets[len(sets)-1]))
	}
	for k := 0; k < 400; k++ {
		a, h := rng.Intn(len(history)), rng.Intn(len(history))
		want := 0
		for x := range sets[h] {
			if !sets[a][x] {
				want++
			}
		}
		n, reach, _, err := r.commitsBetween(shas[a], shas[h], maxWalk)
		if err != nil || n != want || reach != sets[h][a] {
			t.Errorf("commitsBetween(c%d, c%d) = %d, %v, %v; want %d, %v", a, h, n, reach, err, want, sets[h][a])
		}
	}
}
