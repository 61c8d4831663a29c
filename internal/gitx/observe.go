package gitx

import (
	"context"
	"errors"
	"fmt"
)

// Dirty is the dirty list of the work tree a branch is checked out in, or
// why there is none.
type Dirty struct {
	Known   bool // Entries is the answer
	Entries []StatusEntry
	// NotApplicable: the branch is not checked out in any work tree that
	// exists, so it has no dirty list (Reason says which case).
	NotApplicable bool
	TimedOut      bool   // git did not answer in time
	Reason        string // when not Known: "timed out", "branch not checked out", git's error
}

// Observation is what git says about one branch of the repository.
type Observation struct {
	Branch   string
	Worktree string // where the branch is checked out; "" when nowhere (or the work tree is gone)
	// Head is the HEAD of that work tree (possibly detached, mid-rebase),
	// else the branch tip. Valid when HeadErr is "".
	Head    Head
	HeadErr string
	Exists  bool // refs/heads/<branch> exists
	Dirty   Dirty
	Log     []Commit // up to n commits from Head, newest first
}

// ObserveBranch gathers HEAD, the dirty list and the last n commits of
// branch, as git says them. The work tree that has the branch checked out
// is described (see CheckedOut): its HEAD and dirty list come from one `git
// status --porcelain=v2 --branch` run in it (in the place the repository
// was opened from when it is the current one). When no existing work tree
// has the branch, HEAD is the branch tip and the dirty list is not
// applicable; a work tree deleted but not pruned never falls back to
// another's HEAD. When git cannot answer, HeadErr and Dirty.Reason say why.
func (r *Repo) ObserveBranch(ctx context.Context, branch string, n int) Observation {
	return r.observe(ctx, branch, n, false)
}

// ObserveBranchLast is ObserveBranch for a caller that asks this Repo
// nothing more: the object reader is stopped as soon as its reads are
// done (beside git status, when the branch is checked out here), so no git
// process runs once it returns and none is waited for after git status.
func (r *Repo) ObserveBranchLast(ctx context.Context, branch string, n int) Observation {
	defer r.Close()
	return r.observe(ctx, branch, n, true)
}

func (r *Repo) observe(ctx context.Context, branch string, n int, last bool) Observation {
	o := Observation{Branch: branch}
	list, err := r.layout.Worktrees()
	if err != nil {
		o.HeadErr, o.Dirty.Reason = err.Error(), err.Error()
		return o
	}
	w, ok := CheckedOut(list, branch)
	switch {
	case ok && !w.Missing:
		o.Worktree = w.Path
		r.observeWorktree(ctx, &o, w, n, last)
		return o
	case ok && w.Path == "":
		o.Dirty = Dirty{NotApplicable: true, Reason: "branch checked out in the main work tree, whose location is not known here"}
	case ok:
		o.Dirty = Dirty{NotApplicable: true, Reason: fmt.Sprintf("its work tree %s is missing; git worktree prune", w.Path)}
	default:
		o.Dirty = Dirty{NotApplicable: true, Reason: "branch not checked out"}
	}
	tip, exists, err := r.BranchHead(branch)
	if err != nil {
		o.HeadErr = err.Error()
		return o
	}
	o.Exists = exists
	if !exists {
		return o
	}
	o.Head = Head{SHA: tip, Branch: branch}
	r.fillCommit(&o, n, beside{})
	return o
}

// beside is what was read while git status ran in the current work tree:
// HEAD with its subject and the log from it. It is used only when git
// status names the same commit.
type beside struct {
	head   Head
	err    error // HEAD could not be read
	log    []Commit
	logged bool // log is the answer for head (n commits asked for)
	// guess: head is only the commit HEAD's files name, read ahead
	// (Layout.headGuess), good for nothing git status does not confirm.
	guess bool
}

// read reads HEAD, its subject and, when n > 0, its last n commits.
// Where the object files are read by hand (objfiles.go), no git process
// is started for it: the commit HEAD's files name is read ahead (a
// guess, for git status to confirm). Otherwise git says HEAD (readGit).
func (b *beside) read(r *Repo, n int) {
	if r.objectFiles() == nil {
		b.readGit(r, n)
		return
	}
	b.guess = true
	id, ok := r.layout.headGuess()
	if !ok {
		return
	}
	c, err := r.commit(id)
	if err != nil {
		return
	}
	b.head = Head{SHA: c.ID, Subject: c.Subject}
	b.readLog(r, n)
}

// readGit asks git for HEAD, its subject and its log.
func (b *beside) readGit(r *Repo, n int) {
	b.head, b.err = r.Head()
	if b.err != nil || b.head.Unborn {
		return
	}
	b.readLog(r, n)
}

// readLog reads the last n commits from b.head.
func (b *beside) readLog(r *Repo, n int) {
	if n <= 0 {
		return
	}
	if log, err := r.LogFrom(b.head.SHA, n); err == nil {
		b.log, b.logged = log, true
	}
}

// observeWorktree reads HEAD and the dirty list of the work tree w. In the
// current work tree, git status, a subprocess started first, runs while
// HEAD, its subject and its log are read (beside.read: from the object
// files, else through cat-file; on a large tree status is most of the
// cost); with last the reader is stopped then, before status ends.
func (r *Repo) observeWorktree(ctx context.Context, o *Observation, w Worktree, n int, last bool) {
	var st Status
	var err error
	var pre beside // read beside git status (current work tree only)
	p := r.layout.inWorktree(w.Path)
	if w.Current {
		p = r.layout.here()
		wait := startStatus(ctx, p) // first: it is the long one
		pre.read(r, n)
		if last {
			r.Close()
		}
		st, err = wait()
	} else {
		st, err = statusIn(ctx, p)
	}
	switch {
	case err != nil:
		o.Dirty.Reason = err.Error()
	case st.TimedOut:
		o.Dirty.TimedOut, o.Dirty.Reason = true, "timed out"
	default:
		o.Dirty = Dirty{Known: true, Entries: st.Entries}
	}
	head := st.Head
	if err != nil || st.TimedOut {
		// HEAD from git status is unknown; git asked beside it may still
		// have answered (a timeout), otherwise HEAD is unknown too. A
		// guess is no answer: git is asked now.
		if w.Current && pre.guess {
			pre = beside{}
			pre.readGit(r, n)
		}
		if !w.Current || pre.err != nil {
			o.HeadErr = o.Dirty.Reason
			if pre.err != nil {
				o.HeadErr = pre.err.Error()
			}
			return
		}
		head = pre.head
	}
	if head.Unborn {
		o.Head = head
		return
	}
	same := w.Current && pre.err == nil && pre.head.SHA == head.SHA
	if same {
		head.Subject = pre.head.Subject
	} else {
		pre = beside{}
	}
	o.Head = head
	o.Exists = true
	if head.Detached {
		_, o.Exists, _ = r.BranchHead(o.Branch) // mid-rebase: does the branch itself exist?
	}
	r.fillCommit(o, n, pre)
}

// fillCommit adds the subject of o.Head (unless have read it) and the log
// (unless have logged it).
func (r *Repo) fillCommit(o *Observation, n int, have beside) {
	subject := have.head.SHA != "" && have.head.SHA == o.Head.SHA
	if subject && (n <= 0 || have.logged) {
		o.Log = have.log
		return
	}
	if !subject && o.Head.Subject == "" {
		c, err := r.commit(o.Head.SHA)
		if err != nil && !errors.Is(err, errMissing) {
			o.HeadErr = fmt.Sprintf("read commit %s: %v", o.Head.SHA, err)
			return
		}
		o.Head.Subject = c.Subject
	}
	if n > 0 {
		o.Log, _ = r.LogFrom(o.Head.SHA, n)
	}
}

// Commit returns the commit with the full id, ok false when it is not a
// commit of this repository.
func (r *Repo) Commit(id string) (Commit, bool) {
	c, err := r.commit(id)
	if err != nil {
		return Commit{}, false
	}
	return Commit{SHA: c.ID, Subject: c.Subject, When: c.When}, true
}
