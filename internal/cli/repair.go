package cli

import (
	"fmt"
	"path"
	"slices"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/removal"
	"github.com/orc-state/orc-state/internal/repair"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/internal/verify"
	"github.com/orc-state/orc-state/registry"
)

// RepairCmd is `repair`.
type RepairCmd struct {
	BranchFlag
	Temp          bool   `help:"Remove temp files left by interrupted writes." xor:"fix"`
	Adopt         string `help:"Register an orphan folder from its checkpoint frontmatter." placeholder:"NAME" xor:"fix"`
	RemoveOrphan  string `name:"remove-orphan" help:"Remove an orphan folder (tombstone in removed.jsonl)." placeholder:"NAME" xor:"fix"`
	Redact        bool   `help:"Remove credentials an older orc-state stored in the session's entry, files or journal (rewrites them with a marker and re-chains the journal)." xor:"fix"`
	RedactRemoved bool   `name:"redact-removed" help:"Remove credentials an older orc-state stored in removed.jsonl (rewrites those lines with a marker)." xor:"fix"`
	Rebuild       bool   `name:"rebuild-registry" help:"Rebuild an unreadable orc.json from each session's checkpoint frontmatter and journal (the damaged file kept aside in the state dir)." xor:"fix"`
}

// Run applies the fixes doctor names, each journaled, and invents no data:
// the mirror is regenerated from the registry; an orphan is adopted only
// from its own valid checkpoint frontmatter.
//
// An interrupted transaction comes first: when one is recorded, repair
// completes it (the state becomes exactly what the interrupted verb would
// have written). Plain repair stops there (run it again for the session's
// own fixes); --temp, --adopt and --remove-orphan go on with their fix.
func (c *RepairCmd) Run(e *Env) error {
	completed, err := e.finishInterrupted()
	if err != nil {
		return err
	}
	switch {
	case c.Temp:
		return c.removeTemp(e)
	case c.Adopt != "":
		return c.adopt(e)
	case c.RemoveOrphan != "":
		return c.removeOrphan(e)
	case c.Redact:
		return c.redact(e)
	case c.RedactRemoved:
		return c.redactRemoved(e)
	case c.Rebuild:
		return c.rebuildRegistry(e)
	}
	if completed {
		return nil
	}
	return e.onSession(c.Branch, func(tx *state.Tx, s *registry.Session) error {
		findings, err := verify.Session(tx.Dir(), tx.Reg, s, e.now())
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(findings, func(f verify.Finding) bool { return repair.Fixes(f.Code) }) {
			fmt.Fprintf(e.Stdout, "nothing to repair in %s\n", safetext.Escape(s.SessionID))
			if len(verify.StoredSecrets(tx.Dir(), s)) > 0 {
				fmt.Fprintln(e.Stdout, safetext.Escape("it holds a stored credential: orc-state repair --redact --session="+safetext.Quote(s.SessionID)+" removes it"))
			}
			return nil // and nothing written
		}
		if err := tx.Mirror(s); err != nil {
			return err
		}
		tx.Touch(s.SessionID, map[string]string{"fix": "mirror"})
		fmt.Fprintf(e.Stdout, "repaired %s: checkpoint mirror regenerated, journal re-baselined\n", safetext.Escape(s.SessionID))
		return nil
	})
}

// finishInterrupted completes an interrupted transaction, if one is
// recorded, and says so.
func (e *Env) finishInterrupted() (bool, error) {
	d, err := e.Dir()
	if err != nil {
		return false, err
	}
	if err := e.checkActor(); err != nil {
		return false, err
	}
	in, err := d.Finish(ctxBackground(), state.Options{Verb: e.Verb, Actor: e.Actor(), LockTimeout: e.G.LockTimeout})
	if err != nil || in == nil {
		return false, err
	}
	if in.Torn {
		fmt.Fprintf(e.Stdout, "removed the record of %s\n", safetext.Escape(in.Describe()))
	} else {
		fmt.Fprintf(e.Stdout, "completed the interrupted %s\n", safetext.Escape(in.Describe()))
	}
	return true, nil
}

// fix is what the repair package records of this run.
func (e *Env) fix() repair.Run {
	return repair.Run{Verb: e.Verb, Actor: e.Actor(), Stamp: e.stamp()}
}

// removeTemp deletes leftover temp files (repair.Run.Temp).
func (c *RepairCmd) removeTemp(e *Env) error {
	var removed []string
	err := e.Update(func(tx *state.Tx) error {
		removed = e.fix().Temp(tx)
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range removed {
		fmt.Fprintf(e.Stdout, "removed %s\n", safetext.Escape(r))
	}
	return nil
}

// adopt registers an orphan folder from its checkpoint's frontmatter.
func (c *RepairCmd) adopt(e *Env) error {
	name := c.Adopt
	if err := repair.Adoptable(name); err != nil {
		return err
	}
	return e.Update(func(tx *state.Tx) error {
		s, err := repair.Adopt(tx, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "adopted %s (branch %s) from its checkpoint\n", safetext.Escape(name), safetext.Escape(s.GitBranch))
		return nil
	})
}

// removeOrphan deletes a session folder no entry owns, archived first,
// with a tombstone; git is asked first (never under the lock) whether it
// tracks the folder.
func (c *RepairCmd) removeOrphan(e *Env) error {
	name := c.RemoveOrphan
	if repair.OrphanName(name) {
		d, err := e.Dir()
		if err != nil {
			return err
		}
		if err := repair.Untracked(d, name); err != nil {
			return err
		}
	}
	return e.removal().Keep(nil, func(d *state.Dir) ([]*archive.Item, error) {
		return e.fix().OrphanItems(d, name)
	}, func(tx *state.Tx, store *archive.Store, items []*archive.Item) error {
		kept, err := e.fix().RemoveOrphan(tx, name, func(now archive.Snapshot) (string, error) {
			var it *archive.Item
			if len(items) > 0 {
				it = items[0]
			}
			return removal.KeepCurrent(tx, store, it, name, archive.KindOrphan, e.Verb, e.Actor(), now)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "removed orphan folder %s\n", safetext.Escape(name))
		if kept != "" {
			fmt.Fprintf(e.Stderr, "archived as %s: orc-state session restore %s brings it back\n",
				safetext.Escape(kept), safetext.Operand(name+"@"+path.Base(kept)))
		}
		return nil
	})
}
