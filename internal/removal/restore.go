package removal

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/orc-state/orc-state/internal/archive"
	"github.com/orc-state/orc-state/internal/binding"
	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/gitx"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Restored is what a session restore did: the archive it took and, a
// line each, what became of the bindings it held.
type Restored struct {
	Archive string
	Notes   []string
}

// Restore brings a removed session back from its archive (made at at,
// else the newest): its entry and every file, byte for byte, so that
// verify finds it as it was; a removed orphan folder comes back as the
// orphan it was, and a side sync discarded when at names it. The archive
// is validated whole first (archive.Check), and the restore is refused
// (exit 2, nothing written) for credential-shaped content or while a
// session holds that key, that branch or that folder. It is recorded in
// removed.jsonl, not in the session's journal: the session is exactly
// what was archived.
func (r Run) Restore(id, at string) (Restored, error) {
	d, err := r.Where.Dir()
	if err != nil {
		return Restored{}, err
	}
	store := archive.Open(d)
	all, err := store.List(id)
	if err != nil {
		return Restored{}, fault.Wrap(fault.Invalid, err, "cannot list the archives").WithHint("run git status to see why git cannot answer")
	}
	kinds := []string{archive.KindSession, archive.KindOrphan}
	if at != "" {
		kinds = append(kinds, archive.KindSync) // a side sync discarded, when named
	}
	a, ok := archive.Pick(all, id, at, kinds...)
	if !ok {
		what := "no archive of a removed " + safetext.Escape(id)
		if at != "" {
			what += " made at " + at
		}
		hint := fmt.Sprintf("orc-state archive list --session=%s shows its archives", safetext.Quote(id))
		if near := nearArchived(store, id); near != "" {
			hint = "did you mean " + near + "? " + hint
		}
		return Restored{}, fault.NotFoundf("%s", what).WithHint("%s", hint)
	}
	rs, err := Restorable(store, a)
	if err != nil {
		return Restored{}, err
	}
	snap, entry := rs.Snap, rs.Entry
	if where, found := archive.Credential(snap); found {
		return Restored{}, fault.Usagef("%s holds credential-shaped text in %s; it is not restored, nothing was written", safetext.Escape(a.Name), where).
			WithHint("take what you need from it by hand, leaving the secret out")
	}
	var notes []string
	err = r.Update(d, state.Options{}, func(tx *state.Tx) error {
		notes = nil // the function may run twice
		if err := restoreConflict(tx, id, entry); err != nil {
			return err
		}
		if entry != nil {
			tx.Reg.Sessions = append(tx.Reg.Sessions, *entry)
			tx.RegistryChanged()
		}
		for _, p := range slices.Sorted(maps.Keys(snap)) { // one order, so every run takes the same steps
			if p != archive.EntryFile || entry == nil {
				tx.WriteState(filepath.Join(id, filepath.FromSlash(p)), snap[p])
			}
		}
		fields := map[string]any{"restored": id, "archive": a.Name}
		if a.Commit != "" {
			fields["commit"] = a.Commit
		}
		n, bound, err := r.restoreBindings(tx, rs.Bindings)
		if err != nil {
			return err
		}
		if len(bound) > 0 {
			fields["bindings"] = bound
		}
		tx.Tombstone(r.tombstone(fields))
		notes = n
		return nil
	})
	if err != nil {
		return Restored{}, err
	}
	return Restored{Archive: a.Name, Notes: notes}, nil
}

// Restorable reads an archive and validates it as a whole before anything
// is restored (archive.Check): one that is not what a verb could have
// archived is refused, exit 2, nothing written.
func Restorable(store *archive.Store, a archive.Archive) (archive.Restorable, error) {
	r, err := store.Restore(a)
	var inv *archive.InvalidError
	if errors.As(err, &inv) {
		return r, fault.Usagef("%v; nothing was written", inv).
			WithHint("orc-state archive list shows why; take what you need from it by hand; orc-state cleanup --archives --older-than 0d %s lists it for removal", safetext.Operand(a.Session))
	}
	if err != nil {
		return r, fault.Wrap(fault.Invalid, err, "cannot read %s", safetext.Escape(a.Name)).WithHint("run git status to see why git cannot answer")
	}
	return r, nil
}

// restoreConflict refuses to restore id while a session holds its key,
// its branch or its folder (case-insensitively too, as macOS and Windows
// see folders), naming both.
func restoreConflict(tx *state.Tx, id string, entry *registry.Session) error {
	keep := "the archive stays; orc-state archive list --session=" + safetext.Quote(id) + " shows it"
	if live := tx.Reg.Exact(id); live != nil {
		return fault.Usagef("session %s is live (branch %s); restoring its archive would replace it; nothing was written",
			safetext.Escape(id), safetext.Escape(live.GitBranch)).WithHint("%s", keep)
	}
	if entry != nil {
		if other := tx.Reg.ForBranch(entry.GitBranch); other != nil {
			return fault.Usagef("branch %s now has session %s; restoring %s would give it two; nothing was written",
				safetext.Escape(entry.GitBranch), safetext.Escape(other.SessionID), safetext.Escape(id)).WithHint("%s", keep)
		}
		if other := tx.Reg.SameFolder(id); other != nil {
			return fault.Usagef("session %s would share one folder with session %s on macOS and Windows; nothing was written",
				safetext.Escape(id), safetext.Escape(other.SessionID)).WithHint("%s", keep)
		}
	}
	if _, err := os.Lstat(filepath.Join(tx.Dir().Path, id)); !errors.Is(err, fs.ErrNotExist) {
		return fault.Usagef("folder %s exists in the state dir; restoring would mix two sessions' files; nothing was written",
			safetext.Escape(id)).WithHint("orc-state doctor says what it is; the archive stays; orc-state archive list --session=%s shows it", safetext.Quote(id))
	}
	return nil
}

// restoreBindings binds again, under the lock, the worktrees a removed
// session was bound to, each only if that worktree still exists (its root
// and git dir as bound) and is bound to no session now, and its agent is
// no other binding's of the session; a binding it cannot bring back is
// said, never forced. It returns what it says and the paths bound.
func (r Run) restoreBindings(tx *state.Tx, archived []binding.Binding) (notes, bound []string, err error) {
	if len(archived) == 0 {
		return nil, nil, nil
	}
	f, err := selection.ReadBindings(tx.Dir())
	if err != nil {
		return nil, nil, err
	}
	for _, b := range archived {
		p := safetext.Escape(b.Path)
		l, derr := gitx.Discover(b.Path, gitx.CleanEnv(r.Environ))
		switch {
		case derr != nil || !gitx.SameDir(l.WorktreeRoot, b.Path) || !gitx.SameDir(l.GitDir, b.GitDir):
			notes = append(notes, fmt.Sprintf("binding of %s not restored: that worktree is gone", p))
		case boundAt(f, b) != nil:
			notes = append(notes, fmt.Sprintf("binding of %s not restored: that worktree is bound to session %s now", p, safetext.Escape(boundAt(f, b).Session)))
		case f.AgentHolder(b.Session, b.Agent, b.GitDir) != nil:
			notes = append(notes, fmt.Sprintf("binding of %s not restored: agent %s is bound in %s now", p, safetext.Escape(b.Agent), safetext.Escape(f.AgentHolder(b.Session, b.Agent, b.GitDir).Path)))
		default:
			f.Put(b)
			bound = append(bound, b.Path)
			notes = append(notes, fmt.Sprintf("binding of %s restored", p))
		}
	}
	if len(bound) > 0 {
		tx.WriteState(binding.FileName, f.Marshal())
	}
	return notes, bound, nil
}

// boundAt is the binding f has of b's worktree (its git dir or its path).
func boundAt(f *binding.File, b binding.Binding) *binding.Binding {
	for i, o := range f.Worktrees {
		if o.GitDir == b.GitDir || o.Path == b.Path {
			return &f.Worktrees[i]
		}
	}
	return nil
}

// nearArchived names the removed sessions whose archives are close to id
// ("a or b"), as an unknown session's "did you mean" does; "" for none.
func nearArchived(store *archive.Store, id string) string {
	all, err := store.List("")
	if err != nil {
		return ""
	}
	near := archive.Near(all, id)
	for i, n := range near {
		near[i] = safetext.Quote(n)
	}
	return strings.Join(near, " or ")
}
