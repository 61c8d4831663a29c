package selection

// The lock-free lookups: the session a verb reads, the live one a hook
// acts on, the one resume shows (or the list a picker offers), and the
// session a branch has of its own.

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Session reads the registry (no lock) and returns the session for the
// explicit key (a --branch value or a positional key), the verb's
// --session, $ORC_SESSION, the binding or the current branch's. Only the
// entries the choice can match are read: reg may be partial.
func (w Where) Session(explicit string) (*state.Dir, *registry.Registry, *registry.Session, error) {
	c, err := w.Choose(explicit)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := w.Dir()
	if err != nil {
		return nil, nil, nil, err
	}
	reg, _, err := d.ReadRegistryFor(c.Keys()...) // only the candidates, when proven
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := c.Find(reg)
	if err != nil {
		return nil, nil, nil, w.missing(c, err)
	}
	return d, reg, s, nil
}

// Live returns the session selected with no name given (Session("")) when
// it is in progress or paused: the one a hook acts on. Nil and no error
// when there is none, or it is neither (a hook then does nothing); any
// other error is the selection's.
func (w Where) Live() (*state.Dir, *registry.Registry, *registry.Session, error) {
	d, reg, s, err := w.Session("")
	if err != nil {
		if fault.Code(err) == fault.NotFound {
			return nil, nil, nil, nil // no session, or detached: nothing to do
		}
		return nil, nil, nil, err
	}
	if !isLive(s) {
		return nil, nil, nil, nil
	}
	return d, reg, s, nil
}

// Picked is what Pick found: the session resume shows, with the state dir
// it lives in when that is a workspace's (found through this
// repository's link); or, when there is none, the sessions in progress a
// picker offers.
type Picked struct {
	Session *registry.Session
	Dir     *state.Dir         // the workspace's state dir; nil: the one Pick was given
	Reg     *registry.Registry // the workspace's registry; nil with Dir
	// Live are the sessions in progress (this repository's, then the
	// linked workspace sessions') when Session is nil and the error says
	// they are listed on stdout.
	Live []registry.Session
}

// Pick returns the session the selector names, else the current branch's,
// else (in a member repository of a workspace) the workspace session
// linked to the branch, from reg (read whole from d). When there is none
// the error is exit 1 naming what was looked for, and Live holds the
// sessions in progress for a picker; a name that can never be a session,
// another branch's session, and what $ORC_SESSION or the binding names
// are refused as Find refuses them.
func (w Where) Pick(d *state.Dir, reg *registry.Registry, key string) (Picked, error) {
	named := key != "" || w.Flag != "" || w.Getenv("ORC_SESSION") != ""
	ch, err := w.Choose(key)
	if err != nil {
		if named || fault.Code(err) == fault.Invalid {
			return Picked{}, err
		}
		return w.picker(d, reg, "") // detached, outside a repository, or a branch that can have no session
	}
	s, err := ch.Find(reg)
	if err == nil {
		return Picked{Session: s}, nil
	}
	if fault.Code(err) != fault.NotFound || ch.Via != "" {
		return Picked{}, err // another branch's session; what $ORC_SESSION or the binding names
	}
	if key := ch.String(); key != "" {
		if l, ok := linkedTo(d, key); ok {
			return Picked{Session: l.Session, Dir: l.Dir, Reg: l.Reg}, nil
		}
	}
	if named {
		return w.picker(d, reg, ch.String())
	}
	return w.picker(d, reg, "")
}

// picker is Pick's answer when nothing was found: the sessions in
// progress (in a member repository of a workspace, the linked workspace
// sessions too) and the exit-1 error naming what was looked for (key; ""
// for this branch).
func (w Where) picker(d *state.Dir, reg *registry.Registry, key string) (Picked, error) {
	what := "this branch"
	if key != "" {
		what = fmt.Sprintf("%q", key)
	}
	list := reg.Sessions
	for _, l := range LinkedSessions(d) {
		if reg.Exact(l.Session.SessionID) == nil {
			list = append(list[:len(list):len(list)], *l.Session)
		}
	}
	var live []registry.Session
	for _, s := range list {
		if s.Status == "in_progress" {
			live = append(live, s)
		}
	}
	if len(live) == 0 {
		return Picked{}, Suggest(reg, fault.NotFoundf("no session for %s, and no session in progress", what), key, false)
	}
	hint := "orc-state resume SESSION, SESSION one of the sessionIds listed on stdout"
	if key == "" {
		if h := w.joinHint(); h != "" {
			hint = h
		}
	}
	return Picked{Live: live}, Suggest(reg, fault.NotFoundf("no session for %s; %d in progress listed on stdout", what, len(live)).WithHint("%s", hint), key, false)
}

// BranchSession is the session whose gitBranch is branch: looked up in
// reg when it was read whole, else read afresh from d's registry (only
// the entries it may be, when proven); nil when there is none or the
// registry cannot be read.
func BranchSession(d *state.Dir, reg *registry.Registry, branch string) *registry.Session {
	if reg != nil && !reg.Partial() {
		return reg.ForBranch(branch)
	}
	reg, _, err := d.ReadRegistryFor(BranchKeys(branch)...)
	if err != nil {
		return nil
	}
	return reg.ForBranch(branch)
}
