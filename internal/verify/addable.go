package verify

import (
	"os"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/portable"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// Addable refuses adding s to tx.Reg (init, repair --adopt, sync pull of
// a new session) unless its key is one every platform can hold apart:
// portable (registry.CheckPortable), not another branch's, no other session
// of its branch, and no session or folder whose name differs only in case,
// which macOS and Windows keep in one folder. Sessions move between
// machines, so the rule holds on every platform.
func Addable(tx *state.Tx, s *registry.Session) error {
	id, branch := s.SessionID, s.GitBranch
	if err := registry.CheckPortable(id); err != nil {
		return fault.Usagef("%v", err).WithHint("sessions move between machines; a key must be a folder name Linux, macOS and Windows can all use")
	}
	if other := tx.Reg.Exact(id); other != nil {
		return fault.Usagef("branch %q maps to session %q, which belongs to branch %q", branch, id, other.GitBranch).
			WithHint("rename the branch, or remove the other session with orc-state session remove (archived first: orc-state session restore brings it back)")
	}
	if other := tx.Reg.ForBranch(branch); other != nil {
		return fault.Usagef("branch %q already has session %q", branch, other.SessionID).
			WithHint("one session per branch: keep it, or remove it with orc-state session remove --session=%s first (archived: orc-state session restore %s brings it back)", safetext.Quote(other.SessionID), safetext.Operand(other.SessionID))
	}
	if other := tx.Reg.SameFolder(id); other != nil {
		return fault.Usagef("session %q of branch %q would share one folder with session %q of branch %q on %s",
			id, branch, other.SessionID, other.GitBranch, SharedOn(id, other.SessionID)).
			WithHint("use a branch name that differs by more than case, or remove the other session with orc-state session remove --session=%s (archived first: orc-state session restore %s brings it back)", safetext.Quote(other.SessionID), safetext.Operand(other.SessionID))
	}
	entries, _ := os.ReadDir(tx.Dir().Path)
	for _, en := range entries {
		if en.IsDir() && portable.Same(en.Name(), id) {
			return fault.Usagef("session %q of branch %q would share one folder with folder %s on %s", id, branch, en.Name(), SharedOn(id, en.Name())).
				WithHint("run orc-state doctor, or use a branch name that differs by more than case")
		}
	}
	return nil
}
