package cli

import (
	"fmt"

	"github.com/orc-state/orc-state/internal/fault"
	"github.com/orc-state/orc-state/internal/packet"
	"github.com/orc-state/orc-state/internal/safetext"
	"github.com/orc-state/orc-state/internal/state"
	"github.com/orc-state/orc-state/registry"
)

// ResumeCmd is `resume`.
type ResumeCmd struct {
	BranchFlag
	Key      string `arg:"" optional:"" help:"Branch or sessionId (default: the current branch's session)." predictor:"session"`
	JSON     bool   `name:"json" help:"The packet as JSON."`
	MaxBytes int    `name:"max-bytes" default:"4096" help:"Upper bound of the packet, in bytes."`
}

// DefaultResumeBytes bounds the resume packet.
const DefaultResumeBytes = 4096

// Run prints the resume packet of the given session, else the current
// branch's (docs/protocol.md §11). Without one it lists the in-progress sessions on
// stdout for a picker and exits 1, naming on stderr what it looked for; a
// name that can never be a session, or another branch's session, is exit 2.
func (c *ResumeCmd) Run(e *Env) error {
	if c.MaxBytes < 512 {
		return fault.Usagef("--max-bytes %d is below 512", c.MaxBytes)
	}
	key := c.Key
	if key == "" {
		key = c.Branch
	}
	d, reg, err := e.readRegistry()
	if err != nil {
		return err
	}
	s, err := e.pickSession(d, reg, key)
	if err != nil {
		return err
	}
	if s.d != nil {
		d, reg = s.d, s.reg // a member repository's workspace session
	}
	agent, _ := e.agent("")
	p := packet.Build(d, reg, s.Session, agent, e.now())
	if c.JSON {
		_, err := e.Stdout.Write(p.JSON(c.MaxBytes))
		return err
	}
	_, err = fmt.Fprint(e.Stdout, p.Markdown(c.MaxBytes))
	return err
}

// picked is the session resume shows, with the state dir it lives in when
// that is a workspace's, found through this repository's link.
type picked struct {
	*registry.Session
	d   *state.Dir
	reg *registry.Registry
}

// pickSession returns the session the selector names, else the current
// branch's, else (in a member repository of a workspace) the workspace
// session linked to the branch. When there is none it lists the sessions
// in progress on stdout and returns exit 1.
func (e *Env) pickSession(d *state.Dir, reg *registry.Registry, key string) (picked, error) {
	named := key != "" || e.sessionFlag != "" || e.getenv("ORC_SESSION") != ""
	ch, err := e.choose(key)
	if err != nil {
		if named || fault.Code(err) == fault.Invalid {
			return picked{}, err
		}
		return picked{}, e.listLive(d, reg, "") // detached, outside a repository, or a branch that can have no session
	}
	s, err := ch.find(reg)
	if err == nil {
		return picked{Session: s}, nil
	}
	if fault.Code(err) != fault.NotFound || ch.via != "" {
		return picked{}, err // another branch's session; what $ORC_SESSION or the binding names
	}
	if key := ch.String(); key != "" {
		if ws, wreg, wsSession, ok := linkedSession(d, key); ok {
			return picked{Session: wsSession, d: ws, reg: wreg}, nil
		}
	}
	if named {
		return picked{}, e.listLive(d, reg, ch.String())
	}
	return picked{}, e.listLive(d, reg, "")
}

// listLive prints the in-progress sessions for a picker (in a member
// repository of a workspace, the linked workspace sessions too) and returns
// the exit-1 error naming what was looked for (key; "" for this branch).
func (e *Env) listLive(d *state.Dir, reg *registry.Registry, key string) error {
	what := "this branch"
	if key != "" {
		what = fmt.Sprintf("%q", key)
	}
	list := reg.Sessions
	for _, l := range linkedSessions(d) {
		if reg.Exact(l.s.SessionID) == nil {
			list = append(list[:len(list):len(list)], *l.s)
		}
	}
	var live int
	for _, s := range list {
		if s.Status == "in_progress" {
			live++
			fmt.Fprintf(e.Stdout, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
		}
	}
	if live == 0 {
		return fault.NotFoundf("no session for %s, and no session in progress", what)
	}
	hint := "orc-state resume SESSION, SESSION one of the sessionIds listed on stdout"
	if key == "" {
		if h := e.joinHint(); h != "" {
			hint = h
		}
	}
	return fault.NotFoundf("no session for %s; %d in progress listed on stdout", what, live).WithHint("%s", hint)
}
