package refsync

// State is where a session stands against the remote, as `sync status`
// prints it; push and pull act on exactly this.
type State string

// The states.
const (
	InSync     State = "in sync"     // nothing to do
	Ahead      State = "ahead"       // push publishes; pull leaves it
	Behind     State = "behind"      // pull imports; push refuses
	Diverged   State = "diverged"    // both changed since the base: sync resolve
	NotPushed  State = "not pushed"  // the remote has no such session: push publishes
	RemoteOnly State = "remote only" // no such session here: pull imports
	// Unreadable is a remote commit whose objects cannot be read.
	Unreadable State = "unreadable remote"
	// InvalidRemote is a remote commit pull would refuse to import (an
	// invalid entry or file, an unsafe path).
	InvalidRemote State = "invalid remote"
	// InvalidName is a session whose id git refuses as a ref name: push
	// refuses it.
	InvalidName State = "invalid name"
	// InvalidLocal is a session push would publish but refuses: it holds a
	// credential, or a file its verbs would refuse.
	InvalidLocal State = "invalid local"
)

// facts are what the state of one session is decided from.
type facts struct {
	hasLocal bool
	base     string // the local base ref's commit, "" when none
	remote   string // the remote's commit as fetched, "" when none
	// changed: the local content differs from the base's (always true
	// without a base).
	changed bool
	// sameAsRemote: the local content equals the remote commit's.
	sameAsRemote bool
	// containsRemote: the local journal is the remote commit's journal
	// with more lines after it, so the local state is the remote's plus
	// local changes (a push the remote accepted but whose base was never
	// recorded here, followed by more changes).
	containsRemote bool
	// remoteBehindBase: the remote commit is an ancestor of the base (the
	// base was published elsewhere, or the remote went back). Asked only
	// when base and remote are both set and differ.
	remoteBehindBase func() (bool, error)
	// remoteAncestor is the newest commit of the remote's history whose
	// content the local content equals ("" when none): the local state is
	// one the remote has had, so the remote only moved on from it. Asked
	// only when the local content differs from the base's and from the
	// remote's.
	remoteAncestor func() (string, error)
}

// verdict is a session's state and its effective base: the commit the
// local content is known to be, or to start from. It differs from the base
// ref when that lags (a sync was interrupted after the remote accepted a
// push, or after an import was written, and before the ref moved); the
// verb that acts on the session then sets the ref.
type verdict struct {
	state State
	base  string
}

// classify applies the rule: a session is diverged only when this machine
// changed it since what it last shared with the remote and the remote moved
// on from that too. What it shared is decided by ancestry and content, not
// by the base ref alone, which may lag: a local state that equals the
// remote's, contains it, or equals a state the remote has had is in sync,
// ahead or behind, never diverged.
func classify(f facts) (verdict, error) {
	switch {
	case f.remote == "":
		return verdict{NotPushed, f.base}, nil
	case !f.hasLocal:
		return verdict{RemoteOnly, f.base}, nil
	case f.sameAsRemote:
		return verdict{InSync, f.remote}, nil
	case f.base == f.remote:
		return verdict{Ahead, f.base}, nil // changed, since the content differs from the remote's = the base's
	}
	if f.base != "" {
		behind, err := f.remoteBehindBase()
		if err != nil {
			return verdict{}, err
		}
		if behind {
			return verdict{Ahead, f.base}, nil
		}
	}
	if f.containsRemote {
		return verdict{Ahead, f.remote}, nil
	}
	if !f.changed {
		return verdict{Behind, f.base}, nil
	}
	at, err := f.remoteAncestor()
	if err != nil {
		return verdict{}, err
	}
	if at != "" {
		return verdict{Behind, at}, nil
	}
	return verdict{Diverged, f.base}, nil
}
