package selection

// What a selection that found nothing says to do next: join a live
// session from an unbound linked worktree (never register a second
// ledger), or the near names of a mistyped one.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/suggest"
	"github.com/orc-state/orc-state/registry"
)

// missing is Find's error for choice c with its next step: when the
// current branch has no session in a linked worktree that no binding
// names, the hint says to join a live session; when the command line
// named the session, it adds the near names the whole registry holds
// (read only on this failing path).
func (w Where) missing(c Choice, err error) error {
	if c.Head {
		return w.withJoinHint(err)
	}
	if c.Via != "" {
		return err
	}
	d, derr := w.Dir()
	if derr != nil {
		return err
	}
	reg, _, rerr := d.ReadRegistry()
	if rerr != nil {
		return err
	}
	return Suggest(reg, err, c.String(), c.ID != "")
}

// UnboundLinked reports whether the run is in a linked worktree that no
// binding names: where an agent who found no session must be told to
// join one, never to register a second.
func (w Where) UnboundLinked() bool {
	d, err := w.Dir()
	if err != nil || d.Git == nil || !d.Git.Linked || d.Git.WorktreeRoot == "" {
		return false
	}
	b, err := w.Binding()
	return err == nil && b == nil
}

// joinHint is the hint for an unbound linked worktree that found no
// session: join one of the live sessions (named), never init a second
// ledger; "" when there is no live session to join.
func (w Where) joinHint() string {
	if !w.UnboundLinked() {
		return ""
	}
	d, err := w.Dir()
	if err != nil {
		return ""
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return ""
	}
	ids := LiveIDs(reg)
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("this worktree is bound to no session; the live session is %s: orc-state worktree join --session=%s binds this worktree to it (run here)", safetext.Escape(ids[0]), safetext.Quote(ids[0]))
	}
	return fmt.Sprintf("this worktree is bound to no session; the live sessions are %s: orc-state worktree join --session S binds this worktree to one (run here)", QuotedList(ids, 5))
}

// withJoinHint replaces the hint of a not-found error with joinHint in an
// unbound linked worktree.
func (w Where) withJoinHint(err error) error {
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code != fault.NotFound {
		return err
	}
	if h := w.joinHint(); h != "" {
		copied := *fe
		copied.Hint = h
		return &copied
	}
	return err
}

// QuotedList is ids shell-quoted and joined by commas, the first n of
// them and then how many more.
func QuotedList(ids []string, n int) string {
	out := make([]string, 0, n+1)
	for i, id := range ids {
		if i == n {
			out = append(out, fmt.Sprintf("(+%d more)", len(ids)-n))
			break
		}
		out = append(out, safetext.Quote(id))
	}
	return strings.Join(out, ", ")
}

// Suggest adds "did you mean ..." to err, a session that was not found by
// the name key, when reg (read whole) holds sessions whose sessionId (or,
// unless idsOnly, branch: whichever of the two is closer) is close to it:
// as kong does for an unknown flag. Any other error, or no close name, is
// err as it was.
func Suggest(reg *registry.Registry, err error, key string, idsOnly bool) error {
	var fe *fault.Error
	if key == "" || reg == nil || !errors.As(err, &fe) || fe.Code != fault.NotFound {
		return err
	}
	var names []string
	for _, s := range reg.Sessions {
		name := s.SessionID
		if !idsOnly && suggest.Distance(key, s.GitBranch) <= suggest.Distance(key, name) {
			name = s.GitBranch
		}
		names = append(names, name)
	}
	near := suggest.Near(key, names)
	if len(near) == 0 {
		return err
	}
	quoted := make([]string, len(near))
	for i, n := range near {
		quoted[i] = safetext.Quote(n)
	}
	out := *fe
	out.Hint = "did you mean " + strings.Join(quoted, " or ") + "? " + fe.Hint
	return &out
}
