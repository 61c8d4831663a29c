package cli

import (
	"errors"
	"strings"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/suggest"
	"github.com/orc-state/orc-state/registry"
)

// suggestSession adds "did you mean ..." to err, a session that was not
// found by the name key, when reg (read whole) holds sessions whose
// sessionId (or, unless idsOnly, branch: whichever of the two is closer)
// is close to it: as kong does for an unknown flag. Any other error, or
// no close name, is err as it was.
func suggestSession(reg *registry.Registry, err error, key string, idsOnly bool) error {
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

// missingSuggested is missing with the suggestions of suggestSession,
// from the whole registry (read only on this failing path).
func (e *Env) missingSuggested(c choice, err error) error {
	err = e.missing(c, err)
	if c.head || c.via != "" {
		return err
	}
	d, derr := e.Dir()
	if derr != nil {
		return err
	}
	reg, _, rerr := d.ReadRegistry()
	if rerr != nil {
		return err
	}
	return suggestSession(reg, err, c.String(), c.id != "")
}
