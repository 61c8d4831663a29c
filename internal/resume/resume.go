// Package resume owns what an agent picking up a session is told, from
// the run's plain values to the answer a verb prints: Show, the packet
// `orc-state resume` prints (the session selection picks, a linked
// workspace's, or the sessions in progress a picker offers), and
// SessionStart, the whole answer of the SessionStart hook (the live
// session, the title it may set, a banner or the packet within the host's
// bound, and the ORC_* exports appended to $CLAUDE_ENV_FILE). The packet
// itself is internal/packet's; which session, internal/selection's; the
// exports, internal/envfile's. It writes nothing but the exports.
package resume

import (
	"time"

	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/selection"
	"github.com/orc-state/orc-state/registry"
)

// Shown is what resume prints: the packet, or, when no session is
// found, the sessions in progress for a picker (with the error, exit 1).
type Shown struct {
	Packet packet.Packet
	Live   []registry.Session // listed on stdout when Show fails to find the session
}

// Show builds the resume packet of the session key names (a branch or
// sessionId; "" for the run's own: --session, $ORC_SESSION, the binding,
// the branch), read from the whole registry; in a member repository of a
// workspace, the workspace session linked to the branch. The packet
// shows the claims of the run's agent first. When no session is found the
// error is selection.Where.Pick's and Live holds the picker's list.
func Show(r selection.Run, key string, now time.Time) (Shown, error) {
	w := r.Where()
	d, err := w.Dir()
	if err != nil {
		return Shown{}, err
	}
	reg, _, err := d.ReadRegistry()
	if err != nil {
		return Shown{}, err
	}
	p, err := w.Pick(d, reg, key)
	if err != nil {
		return Shown{Live: p.Live}, err
	}
	if p.Dir != nil {
		d, reg = p.Dir, p.Reg // a member repository's workspace session
	}
	agent, _ := w.Agent("", r.Wd) // whose claims come first; none when it cannot be named
	return Shown{Packet: packet.Build(d, reg, p.Session, agent, now)}, nil
}
