package refsync

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/lock"
)

// LockName is the sync lock's file in the repository's common git dir.
// The sync verbs of one repository take it, one at a time, so that two
// of them never race on the same refs and imports; it is not the state
// dir's writers' lock, which sync takes only for its short transactions,
// so writers are never held up by a sync waiting on the network.
const LockName = "orc-sync.lock"

// lock takes the sync lock, waiting up to the lock timeout, and returns
// its release. A sync that is still running after that is exit 1:
// "another sync is running", naming it.
func (s *Syncer) lock() (func(), error) {
	dir := s.git.CommonDir
	l, err := lock.AcquireFile(context.Background(), filepath.Join(dir, LockName), s.Opts.Verb, s.Opts.LockTimeout)
	var te *lock.TimeoutError
	switch {
	case errors.As(err, &te):
		return nil, fault.NotFoundf("another sync is running (%s); nothing was done", lock.DescribeHolder(te.Holder)).
			WithHint("wait for it to end, then run orc-state %s again (or raise --lock-timeout)", s.Opts.Verb)
	case err != nil:
		return nil, fault.Wrap(fault.Invalid, err, "cannot take the sync lock")
	}
	return func() { _ = l.Release() }, nil
}
