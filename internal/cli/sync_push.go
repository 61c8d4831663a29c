package cli

import (
	"fmt"
	"time"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/secrets"
	"github.com/orc-state/orc-state/internal/state"
)

// SyncPushCmd is `sync push`.
type SyncPushCmd struct {
	Remote string `default:"origin" help:"The git remote (any transport git knows)."`
	Key    string `arg:"" optional:"" help:"One session (default: all)."`
}

// Run records each selected session as a commit on its sync ref and
// pushes the refs; a remote that moved on is refused with both heads.
func (c *SyncPushCmd) Run(e *Env) error {
	d, r, err := e.syncEnv()
	if err != nil {
		return err
	}
	ids, err := e.syncSelection(d, c.Key)
	if err != nil {
		return err
	}
	_ = fetch(d, c.Remote) // a remote without our refs yet is fine
	var specs []string
	for _, id := range ids {
		snap, err := e.snapshot(d, id)
		if err != nil {
			return err
		}
		for _, name := range sortedKeys(snap) {
			if kind, line, ok := secrets.Find(snap[name]); ok {
				return fault.Usagef("%s/%s line %d looks like a credential (%s); nothing was pushed", id, name, line, kind).
					WithHint("remove the secret from the session, then push again")
			}
		}
		parent, _ := r.Ref(localRef(id))
		head, err := r.CommitSnapshot(snap, parent, "orc-state sync: "+id, time.Now().UTC())
		if err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot record %s", id)
		}
		if parent != "" {
			if pt, _ := r.TreeOf(parent); pt != "" {
				if ht, _ := r.TreeOf(head); ht == pt {
					head = parent // nothing changed since the last sync commit
				}
			}
		}
		if remote, ok := r.Ref(remoteRef(c.Remote, id)); ok && remote != head {
			if _, reachable, err := r.CommitsBetween(remote, head); err != nil || !reachable {
				return fault.NotFoundf("%s: the remote is at %s, which the local sync commit %s does not contain", id, short(remote), short(head)).
					WithHint("orc-state sync pull --remote %s %s, then push again", c.Remote, id)
			}
		}
		if err := r.SetRef(localRef(id), head); err != nil {
			return fault.Wrap(fault.Invalid, err, "cannot update %s", localRef(id))
		}
		specs = append(specs, pushSpec(id))
	}
	ctx, cancel := syncCtx()
	defer cancel()
	if _, err := d.Git.Run(ctx, append([]string{"push", "--quiet", c.Remote}, specs...)...); err != nil {
		return fault.Wrap(fault.NotFound, err, "push to %s refused", c.Remote).WithHint("orc-state sync status, then sync pull")
	}
	for _, id := range ids {
		head, _ := r.Ref(localRef(id))
		_ = r.SetRef(remoteRef(c.Remote, id), head)
		fmt.Fprintf(e.Stdout, "pushed\t%s\t%s\n", id, short(head))
	}
	return nil
}

// syncSelection is the named session, else every session of the registry.
func (e *Env) syncSelection(d *state.Dir, key string) ([]string, error) {
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return nil, err
	}
	if key != "" {
		s, err := e.findKey(reg, key)
		if err != nil {
			return nil, err
		}
		return []string{s.SessionID}, nil
	}
	var ids []string
	for _, s := range reg.Sessions {
		ids = append(ids, s.SessionID)
	}
	if len(ids) == 0 {
		return nil, fault.NotFoundf("no sessions to push")
	}
	return ids, nil
}
