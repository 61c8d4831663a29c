package refsync

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Syncer runs the sync verbs of one state dir against one remote.
type Syncer struct {
	Dir    *state.Dir
	Remote string // a remote name, path or URL, handed to git as is
	// Opts are the transaction options (verb, actor, lock timeout).
	Opts state.Options
	// NoFetch compares with the last fetch and keeps git from fetching
	// objects on demand (status --no-fetch).
	NoFetch bool
	// Now is the clock of archive names; time.Now when nil.
	Now func() time.Time
	// Timeout bounds each git command; the package's Timeout when zero.
	Timeout time.Duration
	// Notify, when set, is told (at once, from another goroutine) what a
	// network command waits for once it has given no answer for
	// NoticeAfter (WaitNotice when zero): a silent remote is never a
	// silent hang.
	Notify      func(string)
	NoticeAfter time.Duration

	git gitx.Layout
}

// New returns a Syncer for a state dir inside a git repository.
func New(d *state.Dir, remote string, opts state.Options) (*Syncer, error) {
	if d.Git == nil {
		return nil, fault.Usagef("sync needs a git repository")
	}
	if remote == "" || strings.HasPrefix(remote, "-") {
		return nil, fault.Usagef("--remote %q is not a remote", remote).WithHint("pass a remote name, path or URL")
	}
	return &Syncer{Dir: d, Remote: remote, Opts: opts, git: *d.Git}, nil
}

func (s *Syncer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ctx bounds one git command.
func (s *Syncer) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout())
}

func (s *Syncer) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return Timeout
}

// network runs one git command that talks to the remote (what names it:
// "fetch", "push"): bounded by the timeout, saying what it waits for once
// it has been silent for WaitNotice, and telling a timeout as such.
func (s *Syncer) network(what string, run func(context.Context) error) error {
	ctx, cancel := s.ctx()
	defer cancel()
	if s.Notify != nil {
		after := s.NoticeAfter
		if after <= 0 {
			after = WaitNotice
		}
		var mu sync.Mutex // no notice after network returns
		done := false
		t := time.AfterFunc(after, func() {
			mu.Lock()
			defer mu.Unlock()
			if !done {
				s.Notify(fmt.Sprintf("waiting for %s to answer git %s (gives up after %v)", s.Remote, what, s.timeout()))
			}
		})
		defer func() {
			t.Stop()
			mu.Lock()
			done = true
			mu.Unlock()
		}()
	}
	err := run(ctx)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &silentError{fmt.Sprintf("no answer from %s within %v (git %s was stopped)", s.Remote, s.timeout(), what)}
	}
	return err
}

// silentError is a network command stopped by the timeout.
type silentError struct{ msg string }

func (e *silentError) Error() string { return e.msg }

// fetch brings the remote's session refs into the tracking namespace
// (dropping those the remote no longer has).
func (s *Syncer) fetch() error {
	err := s.network("fetch", func(ctx context.Context) error {
		return s.git.Fetch(ctx, s.Remote, fetchSpec(s.Remote))
	})
	if err != nil {
		return fault.Wrap(fault.NotFound, err, "cannot fetch from %s", s.Remote).
			WithHint("check that %s is a remote name, path or URL that git reaches from here (git ls-remote %s), then run orc-state %s again", s.Remote, s.Remote, s.Opts.Verb)
	}
	return nil
}

// refSet is every ref sync owns, read at one moment: the local bases and
// the remote's refs as fetched by sessionId, and the archive refs by name.
type refSet struct {
	bases, remotes, archives map[string]string
}

// refs reads refs/orc/ with one git command.
func (s *Syncer) refs() (refSet, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	all, err := s.git.ListRefs(ctx, "refs/orc/")
	if err != nil {
		return refSet{}, fault.Wrap(fault.Invalid, err, "cannot list refs/orc/")
	}
	rs := refSet{bases: map[string]string{}, remotes: map[string]string{}, archives: map[string]string{}}
	ns := Namespace(s.Remote)
	for name, id := range all {
		switch {
		case strings.HasPrefix(name, SessionsPrefix):
			rs.bases[strings.TrimPrefix(name, SessionsPrefix)] = id
		case strings.HasPrefix(name, ns):
			rs.remotes[strings.TrimPrefix(name, ns)] = id
		case strings.HasPrefix(name, ArchivePrefix):
			rs.archives[name] = id
		}
	}
	return rs, nil
}

// session is one session as surveyed: its local content, base, remote
// commit, their trees, and the state they make.
type session struct {
	id         string
	local      gitx.Snapshot // nil: no such session here
	base       string
	remote     string
	baseTree   gitx.Tree // the effective base's tree (see effBase)
	remoteTree gitx.Tree
	state      State
	// effBase is the commit the local content is known to be or to start
	// from: the base, unless the base ref lags (see verdict).
	effBase string
	// replaced: to import, and the remote's commit does not descend from the
	// base (the remote ref was deleted and pushed again, or forced).
	replaced bool
	err      error // why the state could not be decided
}

// lags reports whether the base ref is behind what the local content is
// known to hold, so the verb that acts on the session sets it.
func (ss *session) lags() bool { return ss.effBase != "" && ss.effBase != ss.base }

// survey decides the state of each session of ids from the local content
// given and the refs. It runs git (object reads, ancestry), so never under
// the lock.
func (s *Syncer) survey(rs refSet, ids []string, locals map[string]gitx.Snapshot) ([]*session, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	var env []string
	if s.NoFetch {
		env = append(env, "GIT_NO_LAZY_FETCH=1")
	}
	objects, err := s.git.OpenObjects(ctx, env...)
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "cannot read the repository")
	}
	defer objects.Close()
	trees := map[string]gitx.Tree{}
	read := func(commit string) (gitx.Tree, error) {
		if t, ok := trees[commit]; ok {
			return t, nil
		}
		t, err := objects.ReadTree(commit)
		if err == nil {
			trees[commit] = t
		}
		return t, err
	}
	var out []*session
	for _, id := range ids {
		ss := &session{id: id, local: locals[id], base: rs.bases[id], remote: rs.remotes[id]}
		out = append(out, ss)
		if why := refName(id); why != "" {
			ss.state, ss.err = InvalidName, fmt.Errorf("%s cannot be a git ref name: %s; rename the session's branch to sync it", id, why)
			continue
		}
		ss.state, ss.err = s.decide(ctx, ss, objects, read)
	}
	return out, nil
}

// decide reads what the state of one session needs and classifies it.
func (s *Syncer) decide(ctx context.Context, ss *session, objects *gitx.Objects, read func(string) (gitx.Tree, error)) (State, error) {
	f := facts{hasLocal: ss.local != nil, base: ss.base, remote: ss.remote, changed: true}
	var err error
	if ss.remote != "" {
		if ss.remoteTree, err = read(ss.remote); err != nil {
			return Unreadable, fmt.Errorf("cannot read the remote's commit %s: %w", short(ss.remote), err)
		}
		f.sameAsRemote = ss.local != nil && sameContent(ss.local, ss.remoteTree)
		f.containsRemote = ss.local != nil && extendsJournal(ss.local, ss.remoteTree.Snapshot())
	}
	if ss.base != "" && ss.local != nil {
		if ss.baseTree, err = read(ss.base); err != nil {
			return Unreadable, fmt.Errorf("cannot read the base %s (%s): %w", short(ss.base), BaseRef(ss.id), err)
		}
		f.changed = !sameContent(ss.local, ss.baseTree)
	}
	f.remoteBehindBase = func() (bool, error) {
		ok, err := s.isAncestor(ctx, objects, ss.remote, ss.base)
		if err != nil {
			return false, fmt.Errorf("cannot compare %s with %s: %w", short(ss.remote), short(ss.base), err)
		}
		return ok, nil
	}
	f.remoteAncestor = func() (string, error) {
		c, err := ancestorWith(objects, ss.remote, ss.local, read)
		if err != nil {
			return "", fmt.Errorf("cannot read the history of %s: %w", short(ss.remote), err)
		}
		return c, nil
	}
	v, err := classify(f)
	if err != nil {
		return Unreadable, err
	}
	ss.effBase = v.base
	if (v.state == Behind || v.state == RemoteOnly) && ss.base != "" && ss.base != ss.remote {
		// Does the import drop the base's history (the remote ref was
		// replaced by a commit that does not descend from it)?
		descends, err := s.isAncestor(ctx, objects, ss.base, ss.remote)
		if err != nil {
			return Unreadable, fmt.Errorf("cannot compare %s with %s: %w", short(ss.base), short(ss.remote), err)
		}
		ss.replaced = !descends
	}
	if ss.lags() { // from here on, the base's tree is the effective base's
		if ss.baseTree, err = read(ss.effBase); err != nil {
			return Unreadable, fmt.Errorf("cannot read %s: %w", short(ss.effBase), err)
		}
	}
	return v.state, nil
}

// isAncestor reports whether commit a is an ancestor of (or is) commit b,
// walking b's history through the open object reader (sync's commits have
// one parent, so this is a short walk back to the base); a history longer
// than the walk's bound is left to git merge-base.
func (s *Syncer) isAncestor(ctx context.Context, objects *gitx.Objects, a, b string) (bool, error) {
	seen := map[string]bool{}
	queue := []string{b}
	for len(queue) > 0 {
		if len(seen) == 10*maxWalk {
			return s.git.IsAncestor(ctx, a, b)
		}
		c := queue[0]
		queue = queue[1:]
		if c == a {
			return true, nil
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		parents, err := objects.Parents(c)
		if err != nil {
			return false, err
		}
		queue = append(queue, parents...)
	}
	return false, nil
}

// readLocals reads the named sessions' content from the registry and the
// files, under the lock when locked (so each snapshot is from one moment),
// else lock-free.
func (s *Syncer) readLocals(ids []string, locked bool) (map[string]gitx.Snapshot, error) {
	if !locked {
		reg, _, err := s.Dir.ReadRegistry()
		if err != nil {
			return nil, err
		}
		return s.readLocalsOf(reg, ids)
	}
	var out map[string]gitx.Snapshot
	err := s.Dir.Update(context.Background(), s.Opts, func(tx *state.Tx) (err error) {
		out, err = s.readLocalsOf(tx.Reg, ids)
		return err
	})
	return out, err
}

// readLocalsOf reads the local snapshots of ids, their entries taken from reg.
func (s *Syncer) readLocalsOf(reg *registry.Registry, ids []string) (map[string]gitx.Snapshot, error) {
	out := map[string]gitx.Snapshot{}
	for _, id := range ids {
		snap, err := readLocal(s.Dir, reg, id)
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "cannot read %s", id).WithHint("run orc-state doctor")
		}
		if snap != nil {
			out[id] = snap
		}
	}
	return out, nil
}

// Select resolves a session key (raw branch or sessionId) against the
// registry; ok is false when the registry has no such session.
func Select(reg *registry.Registry, key string) (string, bool) {
	if s := reg.Find(key); s != nil {
		return s.SessionID, true
	}
	if s := reg.Find(registry.Sanitize(key)); s != nil {
		return s.SessionID, true
	}
	return registry.Sanitize(key), false
}

// moveRefs applies ref updates after a verb's work is done; a failure is
// returned for a warning (the next run repairs it: a local state equal to
// the remote's is in sync whatever the base says).
func (s *Syncer) moveRefs(updates []gitx.RefUpdate) error {
	ctx, cancel := s.ctx()
	defer cancel()
	return s.git.UpdateRefs(ctx, updates)
}

// newCommit records a snapshot as a commit on parent ("" for none).
func (s *Syncer) newCommit(ss *session, snap gitx.Snapshot, parent string, message string) (string, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	var parents []string
	if parent != "" {
		parents = []string{parent}
	}
	c, err := s.git.CommitSnapshot(ctx, snap, parents, message, identity(snap))
	if err != nil {
		return "", fmt.Errorf("cannot record %s: %w", ss.id, err)
	}
	return c, nil
}

// localCommit is the commit that holds the local content on the base: the
// one push publishes, resolve --keep remote archives, and divergence
// messages name.
func (s *Syncer) localCommit(ss *session) (string, error) {
	if ss.effBase != "" && ss.baseTree != nil && sameContent(ss.local, ss.baseTree) {
		return ss.effBase, nil
	}
	return s.newCommit(ss, ss.local, ss.effBase, "orc-state sync: "+ss.id)
}

func sortedIDs(sets ...map[string]string) []string {
	seen := map[string]bool{}
	var ids []string
	for _, set := range sets {
		for id := range set {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	return ids
}

var errChanged = errors.New("changed while sync ran")
