package gitx

import (
	"container/heap"
	"errors"
	"fmt"
	"time"
)

// ErrWalkLimit is returned by CommitsBetween when answering would need to
// read more than 200,000 commits.
var ErrWalkLimit = errors.New("commit walk limit exceeded")

// maxWalk bounds the number of commits CommitsBetween reads.
const maxWalk = 200_000

// walkSlop is how many extra commits the walk reads once only uninteresting
// commits remain, to tolerate small committer-clock skew (git uses 5 too).
const walkSlop = 5

const (
	fromHead     uint8 = 1 << iota // reachable from head
	fromAncestor                   // reachable from ancestor (uninteresting)
)

// CommitsBetween returns the number of commits reachable from head but not
// from ancestor (like `git rev-list --count ancestor..head`) and whether
// ancestor is an ancestor of, or equal to, head. Both arguments are 7..64
// hex claims or revisions such as "HEAD" or a branch name. In a shallow
// clone, when ancestor is not reached and the walk met the boundary, the
// answer is unknown: the error wraps ErrBeyondShallow.
//
// The walk paints both histories in committer-time order and stops as soon
// as only commits reachable from ancestor remain and they are older than
// every commit counted, so its cost is proportional to the distance between
// the two commits, not to the size of history. It is exact with merges as
// long as committer times do not go backwards by more than walkSlop commits;
// reachable is exact regardless. At most 200,000 commits are read
// (ErrWalkLimit).
func (r *Repo) CommitsBetween(ancestor, head string) (n int, reachable bool, err error) {
	a, err := r.resolveCommitish(ancestor)
	if err != nil {
		return 0, false, err
	}
	h, err := r.resolveCommitish(head)
	if err != nil {
		return 0, false, err
	}
	n, reachable, _, err = r.commitsBetween(a, h, maxWalk)
	return n, reachable, err
}

// commitsBetween is CommitsBetween on resolved ids with a walk limit; it also
// returns how many commits were read.
func (r *Repo) commitsBetween(a, h string, limit int) (n int, reachable bool, reads int, err error) {
	if a == h {
		return 0, true, 0, nil
	}
	w := &walker{
		read:    r.commit,
		limit:   limit,
		flags:   map[string]uint8{},
		done:    map[string]uint8{},
		commits: map[string]*commitInfo{},
	}
	if err := w.push(a, fromAncestor, true); err != nil {
		return 0, false, w.reads, err
	}
	if err := w.push(h, fromHead, true); err != nil {
		return 0, false, w.reads, err
	}
	if err := w.run(); err != nil {
		return 0, false, w.reads, err
	}
	for _, f := range w.flags {
		if f == fromHead {
			n++
		}
	}
	reachable = w.flags[a]&fromHead != 0
	if !reachable && w.cut && r.layout.IsShallow() {
		return n, false, w.reads, fmt.Errorf("is %s an ancestor of %s? %w", short(a), short(h), ErrBeyondShallow)
	}
	return n, reachable, w.reads, nil
}

// short abbreviates an object id for a message.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

type walker struct {
	read    func(id string) (commitInfo, error)
	q       commitQueue
	seq     int
	flags   map[string]uint8 // current paint of every seen commit
	done    map[string]uint8 // paint a commit had when last expanded
	commits map[string]*commitInfo
	reads   int
	limit   int
	cut     bool // a commit reachable from head had its parents cut off (shallow)
}

// push adds paint f to commit id and queues it when its paint changed.
// A missing object is an error only when required.
func (w *walker) push(id string, f uint8, required bool) error {
	old, seen := w.flags[id]
	if seen && old|f == old {
		return nil
	}
	c := w.commits[id] // re-queued with a new paint: already decoded
	if c == nil {
		if w.reads++; w.reads > w.limit {
			return fmt.Errorf("%w (%d commits)", ErrWalkLimit, w.limit)
		}
		ci, err := w.read(id)
		if err != nil {
			if !required && errors.Is(err, errMissing) {
				if f == fromHead {
					w.cut = true // a parent the repository lacks
				}
				return nil
			}
			return fmt.Errorf("read commit %s: %w", id, err)
		}
		c = &ci
		w.commits[id] = c
	}
	w.flags[id] = old | f
	w.seq++
	heap.Push(&w.q, queued{c: c, seq: w.seq})
	return nil
}

func (w *walker) run() error {
	oldestCounted := time.Unix(1<<62, 0) // far future
	slop := walkSlop
	for w.q.Len() > 0 {
		c := heap.Pop(&w.q).(queued).c
		f := w.flags[c.ID]
		if w.done[c.ID] == f {
			continue // stale duplicate entry
		}
		w.done[c.ID] = f
		if f == fromHead && c.When.Before(oldestCounted) {
			oldestCounted = c.When
		}
		if c.Cut && f == fromHead {
			w.cut = true // the shallow boundary
		}
		for _, p := range c.Parents {
			if err := w.push(p, f, false); err != nil {
				return err
			}
		}
		if w.onlyUninteresting() && w.q.Len() > 0 && w.q[0].c.When.Before(oldestCounted) {
			if slop--; slop <= 0 {
				break
			}
		} else {
			slop = walkSlop
		}
	}
	return nil
}

func (w *walker) onlyUninteresting() bool {
	for _, it := range w.q {
		if w.flags[it.c.ID]&fromAncestor == 0 {
			return false
		}
	}
	return true
}

type queued struct {
	c   *commitInfo
	seq int
}

// commitQueue is a max-heap on committer time, FIFO among equal times.
type commitQueue []queued

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	ti, tj := q[i].c.When, q[j].c.When
	if !ti.Equal(tj) {
		return ti.After(tj)
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
