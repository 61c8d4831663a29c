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

// pickSession returns the session selection.Where.Pick finds; when there
// is none it lists the sessions in progress on stdout for a picker and
// returns Pick's exit-1 error.
func (e *Env) pickSession(d *state.Dir, reg *registry.Registry, key string) (picked, error) {
	p, err := e.where().Pick(d, reg, key)
	for _, s := range p.Live {
		fmt.Fprintf(e.Stdout, "%s\t%s\t%s/%d\t%s\t%s\n", safetext.Escape(s.SessionID), safetext.Escape(s.Command), s.Phase, s.TotalPhases, safetext.Escape(s.Status), safetext.Escape(s.GitBranch))
	}
	if err != nil {
		return picked{}, err
	}
	return picked{Session: p.Session, d: p.Dir, reg: p.Reg}, nil
}
