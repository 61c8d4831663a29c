package gitx

import (
	"container/heap"
	"errors"
	"fmt"
)

// Log returns at most n commits reachable from HEAD of the place the
// repository was opened from, newest first, in the order of plain `git
// log`. An unborn HEAD or n <= 0 gives an empty slice and no error.
func (r *Repo) Log(n int) ([]Commit, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	id, err := objs.ref("HEAD")
	if errors.Is(err, errMissing) {
		return []Commit{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	return r.LogFrom(id, n)
}

// LogFrom returns at most n commits reachable from the commit id, in the
// order of plain `git log`: newest committer date first, and among equal
// dates the commit queued first (git inserts a parent after the queued
// commits of the same date). A shallow clone's history ends at its
// boundary, as in git.
func (r *Repo) LogFrom(id string, n int) ([]Commit, error) {
	out := []Commit{}
	if n <= 0 {
		return out, nil
	}
	start, err := r.commit(id)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	q := &logQueue{}
	seen := map[string]bool{start.ID: true}
	heap.Push(q, logItem{start, 0})
	seq := 1
	for q.Len() > 0 && len(out) < n {
		c := heap.Pop(q).(logItem).c
		out = append(out, Commit{SHA: c.ID, Subject: c.Subject, When: c.When})
		for _, p := range c.Parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := r.commit(p)
			if errors.Is(err, errMissing) {
				continue // a missing parent ends that line
			}
			if err != nil {
				return nil, fmt.Errorf("log: %w", err)
			}
			heap.Push(q, logItem{pc, seq})
			seq++
		}
	}
	return out, nil
}

type logItem struct {
	c   commitInfo
	seq int
}

// logQueue orders by committer date (newest first), then queue order.
type logQueue []logItem

func (q logQueue) Len() int { return len(q) }
func (q logQueue) Less(i, j int) bool {
	ti, tj := q[i].c.When.Unix(), q[j].c.When.Unix()
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
