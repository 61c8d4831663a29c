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
	base     string // the local base commit, "" when none
	remote   string // the remote's commit as fetched, "" when none
	// changed: the local content differs from the base's (always true
	// without a base).
	changed bool
	// sameAsRemote: the local content equals the remote commit's.
	sameAsRemote bool
	// remoteBehindBase: the remote commit is an ancestor of the base (the
	// base was published elsewhere, or the remote went back). Asked only
	// when base and remote are both set and differ.
	remoteBehindBase func() (bool, error)
}

// classify applies the rule: a session is diverged only when this machine
// changed it since its base and the remote moved past that base too.
func classify(f facts) (State, error) {
	switch {
	case f.remote == "":
		return NotPushed, nil
	case !f.hasLocal:
		return RemoteOnly, nil
	case f.sameAsRemote:
		return InSync, nil
	case f.base == f.remote:
		return Ahead, nil // changed, since the content differs from the remote's = the base's
	}
	if f.base != "" {
		behind, err := f.remoteBehindBase()
		if err != nil {
			return "", err
		}
		if behind {
			return Ahead, nil
		}
	}
	if !f.changed {
		return Behind, nil
	}
	return Diverged, nil
}
