package gitx

import (
	"container/heap"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// LogFrom returns at most n commits reachable from the commit sha, in the
// order of plain `git log`: newest committer date first, and among equal
// dates the commit queued first (git inserts a parent after the queued
// commits of the same date). go-git's own committer-time iterator breaks
// such ties differently, and rebases and scripted commits often share a
// second.
func (r *Repo) LogFrom(sha string, n int) ([]Commit, error) {
	out := []Commit{}
	if n <= 0 {
		return out, nil
	}
	start, err := r.commit(plumbing.NewHash(sha))
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	q := &logQueue{}
	seen := map[plumbing.Hash]bool{start.Hash: true}
	heap.Push(q, logItem{start, 0})
	seq := 1
	for q.Len() > 0 && len(out) < n {
		c := heap.Pop(q).(logItem).c
		out = append(out, Commit{SHA: c.Hash.String(), Subject: subject(c.Message), When: c.Committer.When})
		for _, p := range c.ParentHashes {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := r.commit(p)
			if err != nil {
				continue // a shallow clone's missing parent ends that line
			}
			heap.Push(q, logItem{pc, seq})
			seq++
		}
	}
	return out, nil
}

type logItem struct {
	c   *object.Commit
	seq int
}

// logQueue orders by committer date (newest first), then queue order.
type logQueue []logItem

func (q logQueue) Len() int { return len(q) }
func (q logQueue) Less(i, j int) bool {
	ti, tj := q[i].c.Committer.When.Unix(), q[j].c.Committer.When.Unix()
	if ti != tj {
		return ti > tj
	}
	return q[i].seq < q[j].seq
}
func (q logQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *logQueue) Push(x any)   { *q = append(*q, x.(logItem)) }
func (q *logQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
